"""The dashboard as a teacher meets it, in headless Chromium at a phone's width: the sandbox
(`python -m bot sandbox`) with a group quiz played by two learners, `/dashboard` sent by the
group's admin in private, its button opened in the page's Mini App panel (initData signed
with the sandbox's token, as Telegram signs it), the class opened (its weeks drawn), the grid
read and sorted with the keyboard, a question's figures opened, the report sent into the
private chat, the language switched, the homework's grid opened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support import browser
from tests.support.sandbox import label_is, right_answers, sandbox_process

QUIZ_ID = "model-pipeline-parallelism"
# Adé right twice, Emma right then wrong; the admin plays no question
PLANS = ({"ade": True, "emma": True}, {"ade": True, "emma": False})


@pytest.mark.timeout(240)
def test_a_group_admin_opens_the_dashboard_from_the_sandbox_and_reads_the_grid(
    browser_ready: None, tmp_path: Path
) -> None:
    with (
        sandbox_process(tmp_path) as sandbox,
        browser.chromium(tmp_path / "profile", width=390, height=844) as driver,
    ):
        browser.open_page(driver, sandbox.url + "?as=chidi&theme=dark")
        browser.play_group_quiz(driver, QUIZ_ID, "chidi", PLANS, right_answers(), label_is)
        browser.say(driver, f"/assign {QUIZ_ID} 2h")  # homework nobody has opened yet
        browser.until("the homework", lambda: browser.find(driver, is_homework), driver)

        browser.open_dashboard(driver)
        frame = driver.find_element("id", "mini-app-frame")
        assert frame.size["width"] <= 390
        driver.switch_to.frame(frame)
        classes = browser.until("the classes", lambda: buttons(driver, ".list button"), driver)
        assert [b.text.split("\n")[0] for b in classes] == ["Study group"]
        # Telegram's dark theme, as its client passed it (themeParams): the page's colours
        colours = "const s = getComputedStyle(document.body); return [s.backgroundColor, s.color]"
        assert driver.execute_script(colours) == ["rgb(33, 33, 33)", "rgb(255, 255, 255)"]
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
        classes[0].click()

        browser.until("the class", lambda: heading(driver) == "Study group" or None, driver)
        homework, quizzes = (
            list(listed.find_elements("css selector", "button"))
            for listed in driver.find_elements("css selector", "ul.list")
        )
        assert "open · done 0/0" in homework[0].text
        chart = driver.find_element("css selector", "svg.chart[role=img]")
        described = chart.find_element("css selector", "desc").get_attribute("textContent")
        assert described == "The last 12 weeks: 4 answers in group quizzes and homework, 75% right."
        assert "Model and Pipeline Parallelism" in quizzes[0].text
        quizzes[0].click()

        rows = browser.until("the grid", lambda: grid_rows(driver), driver)
        assert rows == [["Adé", "✓", "✓", "·", "2"], ["Emma", "✓", "✗", "·", "1"]]
        # the third question was asked when the quiz was stopped: nobody answered it
        assert header_text(driver) == ["Learner", "1", "2", "3", "Total"]
        shares = driver.find_elements("css selector", "thead th .pct")
        assert [share.text for share in shares] == ["100%", "50%", "–"]

        # a question opened with the keyboard: its figures, its wrong answer, its explanation
        from selenium.webdriver.common.keys import Keys

        second = driver.find_elements("css selector", ".questions summary")[1]
        assert "50% right · 2 answered · median time" in second.text
        second.send_keys(Keys.ENTER)
        opened = driver.find_elements("css selector", ".questions details")[1]
        browser.until("the question opened", lambda: opened.get_attribute("open"), driver)
        wrong = opened.find_elements("css selector", ".wrong li")
        assert len(wrong) == 1 and wrong[0].text.endswith("×1")
        assert "Explanation" in opened.text

        # sorted by learner with the keyboard: a first Enter sorts names A to Z, a second Z to A
        by_name = driver.find_element("css selector", "thead th button")
        by_name.send_keys(Keys.ENTER)
        browser.until("A to Z", lambda: header_sort(driver) == "ascending" or None, driver)
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        browser.until("Z to A", lambda: grid_rows(driver)[0][0] == "Emma" or None, driver)

        # the report file, sent into the teacher's private chat by the bot
        driver.find_element("css selector", ".export button").click()
        browser.until(
            "sent",
            lambda: "Sent" in driver.find_element("css selector", "[role=status]").text or None,
            driver,
        )
        driver.switch_to.default_content()
        sent = browser.until(
            "the report in the private chat",
            lambda: browser.find(driver, lambda m: "report-model-pipeline" in m["text"]),
            driver,
        )
        assert ".csv" in sent["text"]
        driver.switch_to.frame(driver.find_element("id", "mini-app-frame"))

        choose_language(driver, "yo")
        browser.until("the grid in Yoruba", lambda: header_text(driver)[0] == "Akẹ́kọ̀ọ́", driver)
        assert driver.execute_script("return document.documentElement.lang") == "yo"
        assert grid_rows(driver) == [["Adé", "✓", "✓", "·", "2"], ["Emma", "✓", "✗", "·", "1"]]

        # Escape goes back, and the keyboard starts at the class's heading
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        browser.until("back in the class", lambda: heading(driver) == "Study group" or None, driver)
        assert driver.switch_to.active_element.get_attribute("id") == "heading"

        # the homework's grid: nobody has opened it yet
        driver.find_elements("css selector", "ul.list")[0].find_element(
            "tag name", "button"
        ).click()
        browser.until("the homework's grid", lambda: "0" in heading_sub(driver) or None, driver)
        assert driver.find_elements("css selector", ".grid-wrap") == []

        driver.switch_to.default_content()
        driver.find_element("id", "mini-app-close").click()
        assert not driver.find_element("id", "mini-app").is_displayed()


def is_homework(message: dict[str, Any]) -> bool:
    return "Homework #1" in message["text"]


def heading_sub(driver: Any) -> str:
    """The line under a grid's title (how many learners)."""
    return str(driver.execute_script("return document.querySelector('main p.muted').textContent"))


def heading(driver: Any) -> str:
    return str(driver.execute_script("return document.getElementById('heading').textContent"))


def buttons(driver: Any, selector: str) -> list[Any]:
    return list(driver.find_elements("css selector", selector))


def grid_rows(driver: Any) -> list[list[str]]:
    return list(
        driver.execute_script(
            """return [...document.querySelectorAll('.grid-wrap tbody tr')].map((tr) =>
                 [...tr.children].map((cell) => cell.textContent.trim()))"""
        )
    )


def header_sort(driver: Any) -> str:
    return str(driver.find_element("css selector", "thead th").get_attribute("aria-sort"))


def header_text(driver: Any) -> list[str]:
    """Each column's heading, without the share of right answers under a question's number
    (read at one instant: the table is drawn anew when sorted)."""
    return list(
        driver.execute_script(
            """return [...document.querySelectorAll('thead th button')].map((b) =>
                 b.firstChild.textContent.trim())"""
        )
    )


def choose_language(driver: Any, code: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "language")).select_by_value(code)
