"""The pictures of the sandbox, taken in headless Chromium, a phone-sized window, a fresh
database in a temporary folder: `python -m tests.sandbox.screenshots docs/sandbox` writes the
README's question.png, reveal.png, leaderboard.png and help-teacher.png there (`--help-only`:
the last alone); `python -m tests.sandbox.screenshots docs/images --teacher` writes the
teachers' guide's chat-picker.png, report-grid.png and stats-chart.png (a teacher's first
hour, tests/support/first_hour.py); `python -m tests.sandbox.screenshots docs/images --tutor`
writes reveal-folded.png (a reveal with its long explanation collapsed and when the question
comes back) and progress.png (the /progress chart with the reviews due ahead);
`python -m tests.sandbox.screenshots docs/images --dashboard-only` writes the teacher's
dashboard in the page's Mini App panel, 390 pixels wide: dashboard-classes.png,
dashboard-class.png, dashboard-grid.png and dashboard-question.png (`--dark`: in Telegram's dark theme, named
...-dark.png)."""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.support import browser
from tests.support.first_hour import first_hour
from tests.support.sandbox import label_is, right_answers, sandbox_process

QUIZ_ID = "model-pipeline-parallelism"


@contextmanager
def _page(folder: Path, person: str, height: int = 860, width: int = 420) -> Iterator[Any]:
    """The sandbox in a fresh temporary folder, its page open as `person` in a phone-sized
    window (420 pixels wide by default)."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        profile = work / "profile"
        with sandbox_process(work) as sandbox, browser.chromium(profile, width, height) as driver:
            browser.open_page(driver, sandbox.url + f"?as={person}")
            yield driver


def take(folder: Path) -> None:
    with _page(folder, "emma") as driver:
        browser.say(driver, f"/quiz {QUIZ_ID}")
        question = browser.question(driver, 1)
        driver.save_screenshot(str(folder / "question.png"))
        browser.press(driver, question["id"], 2)
        browser.until(
            "the reveal",
            lambda: browser.find(driver, lambda m: m["id"] == question["id"] and "💡" in m["text"]),
            driver,
        )
        browser.until(
            "the toast", lambda: driver.find_elements("css selector", "#toasts .toast"), driver
        )
        driver.execute_script(
            "document.getElementById(arguments[0]).scrollIntoView({block: 'start'})",
            question["id"],
        )
        driver.save_screenshot(str(folder / "reveal.png"))

        driver.find_element("css selector", "label[for=chat-group]").click()
        browser.act_as(driver, "chidi")
        browser.say(driver, f"/groupquiz {QUIZ_ID} 30")
        # who answers right: Adé both, Emma and Funmi one each, Chidi neither
        plans = (
            {"ade": True, "emma": True, "funmi": False, "chidi": False},
            {"emma": False, "ade": True, "funmi": True},
        )
        browser.play_group_quiz(driver, QUIZ_ID, "chidi", plans, right_answers(), label_is)
        driver.execute_script("for (const t of document.querySelectorAll('.toast')) t.remove()")
        driver.execute_script("document.querySelector('main').scrollTop = 1e9")
        driver.save_screenshot(str(folder / "leaderboard.png"))


def take_help(folder: Path) -> None:
    """The bot admin's /help (a teacher's first look at the commands), scrolled into view."""
    with _page(folder, "funmi") as driver:
        browser.say(driver, "/help")
        shown = browser.until(
            "the help", lambda: browser.find(driver, lambda m: "/import" in m["text"]), driver
        )
        driver.execute_script(
            "document.getElementById(arguments[0]).scrollIntoView({block: 'end'})",
            shown["id"],
        )
        driver.save_screenshot(str(folder / "help-teacher.png"))


def _answer(driver: Any, number: int, right: dict[str, str], wrong: bool) -> dict[str, Any]:
    """Answer question `number` of the seed quiz (right, or the next option); its reveal."""
    question = browser.question(driver, number)
    asked = next(text for text in right if text in question["text"])
    good = next(i for i, label in enumerate(question["buttons"]) if label_is(label, right[asked]))
    browser.press(driver, question["id"], (good + 1) % len(question["buttons"]) if wrong else good)
    return browser.until(
        f"the reveal of question {number}",
        lambda: browser.find(driver, lambda m: m["id"] == question["id"] and "↻" in m["text"]),
        driver,
    )


def take_tutor(folder: Path) -> None:
    right = right_answers()
    with _page(folder, "emma", height=900) as driver:
        browser.say(driver, f"/quiz {QUIZ_ID}")
        revealed = _answer(driver, 1, right, wrong=True)
        driver.execute_script(
            "for (const t of document.querySelectorAll('.toast')) t.remove();"
            "document.getElementById(arguments[0]).scrollIntoView({block: 'end'})",
            revealed["id"],
        )
        driver.save_screenshot(str(folder / "reveal-folded.png"))
        for number in range(2, 9):
            _answer(driver, number, right, wrong=number in (4, 6))
        browser.until(
            "the score", lambda: browser.find(driver, lambda m: "Score:" in m["text"]), driver
        )
        browser.say(driver, "/progress")
        chart = browser.until(
            "the chart",
            lambda: browser.find(driver, lambda m: "Reviews due in the next" in m["text"]),
            driver,
        )
        browser.until(
            "the chart's picture",
            lambda: driver.execute_script(
                "const i = document.querySelector(`#${arguments[0]} .photo img`);"
                "return i !== null && i.complete && i.naturalWidth > 0",
                chart["id"],
            ),
            driver,
        )
        driver.execute_script(
            "for (const t of document.querySelectorAll('.toast')) t.remove();"
            "document.getElementById(arguments[0]).scrollIntoView({block: 'start'})",
            chart["id"],
        )
        driver.save_screenshot(str(folder / "progress.png"))


def take_teacher(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        with sandbox_process(work) as sandbox, browser.chromium(work / "profile") as driver:

            def shoot(name: str, element: Any) -> None:
                if element is None:
                    driver.save_screenshot(str(folder / name))
                else:  # a tall window, so that the whole message is drawn
                    width = driver.get_window_size()["width"]
                    driver.set_window_size(width, 2400)
                    driver.execute_script("arguments[0].scrollIntoView()", element)
                    element.screenshot(str(folder / name))

            first_hour(driver, sandbox.url, work, shoot)


def take_dashboard(folder: Path, theme: str = "light") -> None:
    """The group admin's dashboard in the sandbox's Mini App panel, at a phone's size, in
    Telegram's light (or dark) theme: their classes (dashboard-classes.png), the class with
    its weeks (dashboard-class.png), a group quiz's grid (dashboard-grid.png) and one of its
    questions opened (dashboard-question.png)."""
    plans = (
        {"ade": True, "emma": True, "funmi": False},
        {"ade": True, "emma": False, "funmi": True},
        {"ade": False, "emma": True},
    )
    suffix = "" if theme == "light" else f"-{theme}"
    with _page(folder, f"chidi&theme={theme}", height=844, width=390) as driver:
        browser.play_group_quiz(driver, QUIZ_ID, "chidi", plans, right_answers(), label_is)
        browser.open_dashboard(driver)
        phone = driver.find_element("id", "mini-app-phone")

        def shot(name: str) -> None:
            driver.switch_to.default_content()
            phone.screenshot(str(folder / f"dashboard-{name}{suffix}.png"))
            driver.switch_to.frame(driver.find_element("id", "mini-app-frame"))

        def heading_is(text: str) -> bool | None:
            return driver.find_element("id", "heading").text == text or None

        driver.switch_to.frame(driver.find_element("id", "mini-app-frame"))
        listed = lambda: driver.find_elements("css selector", ".list button")  # noqa: E731
        browser.until("the classes", listed, driver)
        shot("classes")
        listed()[0].click()
        browser.until("the class", lambda: heading_is("Study group"), driver)
        driver.execute_script("document.querySelector('details').open = true")
        driver.execute_script("document.getElementById('weeks-heading').scrollIntoView()")
        shot("class")
        driver.execute_script("arguments[0].click()", listed()[0])
        browser.until(
            "the grid", lambda: driver.find_elements("css selector", ".grid-wrap tbody tr"), driver
        )
        shot("grid")
        driver.execute_script(
            """const opened = document.querySelectorAll('.questions details')[1];
               opened.open = true; opened.scrollIntoView()"""
        )
        shot("question")


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--dashboard-only" in sys.argv:
        theme = "dark" if "--dark" in sys.argv else "light"
        take_dashboard(Path(arguments[0] if arguments else "docs/images"), theme)
        sys.exit()
    if "--tutor" in sys.argv:
        take_tutor(Path(arguments[0] if arguments else "docs/images"))
        sys.exit()
    where = Path(arguments[0] if arguments else "docs/sandbox")
    if "--teacher" in sys.argv:
        take_teacher(where)
    else:
        if "--help-only" not in sys.argv:
            take(where)
        take_help(where)
