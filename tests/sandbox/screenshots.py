"""The pictures of the sandbox, taken in headless Chromium, a phone-sized window, a fresh
database in a temporary folder: `python -m tests.sandbox.screenshots docs/sandbox` writes the
README's question.png, reveal.png, leaderboard.png and help-teacher.png there (`--help-only`:
the last alone); `python -m tests.sandbox.screenshots docs/images --teacher` writes the
teachers' guide's chat-picker.png, report-grid.png and stats-chart.png (a teacher's first
hour, tests/support/first_hour.py); `python -m tests.sandbox.screenshots docs/images --tutor`
writes reveal-folded.png (a reveal with its long explanation collapsed and when the question
comes back) and progress.png (the /progress chart with the reviews due ahead)."""

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


def _as(driver: Any, person: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "person")).select_by_value(person)


def _say(driver: Any, text: str) -> None:
    field = driver.find_element("id", "text")
    field.send_keys(text)
    driver.find_element("id", "send").click()


def _click(driver: Any, message_id: str, index: int) -> None:
    driver.find_elements("css selector", f"#{message_id} .keyboard button")[index].click()


@contextmanager
def _page(folder: Path, person: str, height: int = 860) -> Iterator[Any]:
    """The sandbox in a fresh temporary folder, its page open as `person` in a phone-sized
    window (420 pixels wide)."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        profile = work / "profile"
        with sandbox_process(work) as sandbox, browser.chromium(profile, 420, height) as driver:
            browser.open_page(driver, sandbox.url + f"?as={person}")
            yield driver


def take(folder: Path) -> None:
    with _page(folder, "emma") as driver:
        _say(driver, f"/quiz {QUIZ_ID}")
        question = browser.question(driver, 1)
        driver.save_screenshot(str(folder / "question.png"))
        _click(driver, question["id"], 2)
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
        _as(driver, "chidi")
        _say(driver, f"/groupquiz {QUIZ_ID} 30")
        right = right_answers()
        # who answers right: Adé both, Emma and Funmi one each, Chidi neither
        plans = (
            {"ade": True, "emma": True, "funmi": False, "chidi": False},
            {"emma": False, "ade": True, "funmi": True},
        )
        for number, plan in enumerate(plans, start=1):
            asked = browser.question(driver, number, what=f"group question {number}")
            text = next(t for t in right if t in asked["text"])
            good = next(
                i for i, label in enumerate(asked["buttons"]) if label_is(label, right[text])
            )
            choices = {person: good if ok else (good + 1) % 4 for person, ok in plan.items()}
            for person, choice in choices.items():
                _as(driver, person)
                _click(driver, asked["id"], choice)
                browser.until(
                    f"{person}'s toast",
                    lambda: driver.find_elements("css selector", "#toasts .toast"),
                    driver,
                )
            _as(driver, "chidi")
            _say(driver, "/skip")  # the admin reveals it
            browser.until(
                f"the reveal of group question {number}",
                lambda i=asked["id"]: browser.find(
                    driver, lambda m: m["id"] == i and not m["buttons"]
                ),
                driver,
            )
        _say(driver, "/stopquiz")
        browser.until(
            "the final results",
            lambda: browser.find(driver, lambda m: "🏆" in m["text"]),
            driver,
        )
        driver.execute_script("for (const t of document.querySelectorAll('.toast')) t.remove()")
        driver.execute_script("document.querySelector('main').scrollTop = 1e9")
        driver.save_screenshot(str(folder / "leaderboard.png"))


def take_help(folder: Path) -> None:
    """The bot admin's /help (a teacher's first look at the commands), scrolled into view."""
    with _page(folder, "funmi") as driver:
        _say(driver, "/help")
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
    _click(driver, question["id"], (good + 1) % len(question["buttons"]) if wrong else good)
    return browser.until(
        f"the reveal of question {number}",
        lambda: browser.find(driver, lambda m: m["id"] == question["id"] and "↻" in m["text"]),
        driver,
    )


def take_tutor(folder: Path) -> None:
    right = right_answers()
    with _page(folder, "emma", height=900) as driver:
        _say(driver, f"/quiz {QUIZ_ID}")
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
        _say(driver, "/progress")
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


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a not in ("--help-only", "--teacher", "--tutor")]
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
