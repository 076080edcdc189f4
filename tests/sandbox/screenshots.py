"""The README's pictures of the sandbox, taken in headless Chromium:
`python -m tests.sandbox.screenshots docs/sandbox` writes question.png, reveal.png,
leaderboard.png and help-teacher.png there (a phone-sized window; a fresh database in a
temporary folder; `--help-only`: the last alone)."""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.support import browser
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
def _page(folder: Path, person: str) -> Iterator[Any]:
    """The sandbox in a fresh temporary folder, its page open as `person`."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        with sandbox_process(work) as sandbox, browser.chromium(work / "profile") as driver:
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
            _click(driver, asked["id"], -1)  # 👁 Reveal (admins)
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


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--help-only"]
    where = Path(arguments[0] if arguments else "docs/sandbox")
    if "--help-only" not in sys.argv:
        take(where)
    take_help(where)
