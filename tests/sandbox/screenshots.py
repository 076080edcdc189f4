"""The README's pictures of the sandbox, taken in headless Chromium:
`python -m tests.sandbox.screenshots docs/sandbox` writes question.png, reveal.png and
leaderboard.png there (a phone-sized window; a fresh database in a temporary folder);
`python -m tests.sandbox.screenshots --tutor docs/images` writes reveal-folded.png (a reveal
with its long explanation collapsed and when the question comes back) and progress.png (the
/progress chart with the reviews due ahead), at a phone's width."""

from __future__ import annotations

import sys
import tempfile
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


def take(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        with sandbox_process(work) as sandbox, browser.chromium(work / "profile") as driver:
            driver.get(sandbox.url + "?as=emma")
            browser.until(
                "ready", lambda: driver.find_elements("css selector", "body[data-ready]"), driver
            )
            _say(driver, f"/quiz {QUIZ_ID}")
            question = browser.question(driver, 1)
            driver.save_screenshot(str(folder / "question.png"))
            _click(driver, question["id"], 2)
            browser.until(
                "the reveal",
                lambda: browser.find(
                    driver, lambda m: m["id"] == question["id"] and "💡" in m["text"]
                ),
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
    folder.mkdir(parents=True, exist_ok=True)
    right = right_answers()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        profile = work / "profile"
        with sandbox_process(work) as sandbox, browser.chromium(profile, 420, 900) as driver:
            driver.get(sandbox.url + "?as=emma")
            browser.until(
                "ready", lambda: driver.find_elements("css selector", "body[data-ready]"), driver
            )
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


if __name__ == "__main__":
    if sys.argv[1:2] == ["--tutor"]:
        take_tutor(Path(sys.argv[2] if len(sys.argv) > 2 else "docs/images"))
    else:
        take(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/sandbox"))
