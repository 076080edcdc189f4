"""The README's pictures of the sandbox, taken in headless Chromium:
`python -m tests.sandbox.screenshots docs/sandbox` writes question.png, reveal.png,
leaderboard.png and help-teacher.png there (a phone-sized window; a fresh database in a
temporary folder; `--help-only`: the last alone). `--dashboard-only [docs/images]`: the
teacher's dashboard in the page's Mini App panel, dashboard-classes.png, dashboard-class.png
and dashboard-grid.png (`--dark`: in Telegram's dark theme, named ...-dark.png)."""

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


@contextmanager
def _page(folder: Path, person: str, **window: int) -> Iterator[Any]:
    """The sandbox in a fresh temporary folder, its page open as `person`."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        with (
            sandbox_process(work) as sandbox,
            browser.chromium(work / "profile", **window) as driver,
        ):
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


def take_dashboard(folder: Path, theme: str = "light") -> None:
    """The group admin's dashboard in the sandbox's Mini App panel, at a phone's size, in
    Telegram's light (or dark) theme: their classes (dashboard-classes.png), the class with
    its weeks (dashboard-class.png) and a group quiz's grid (dashboard-grid.png)."""
    plans = (
        {"ade": True, "emma": True, "funmi": False},
        {"ade": True, "emma": False, "funmi": True},
        {"ade": False, "emma": True},
    )
    suffix = "" if theme == "light" else f"-{theme}"
    with _page(folder, f"chidi&theme={theme}", width=390, height=844) as driver:
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
        listed()[0].click()
        browser.until(
            "the grid", lambda: driver.find_elements("css selector", ".grid-wrap tbody tr"), driver
        )
        shot("grid")


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    where = Path(arguments[0] if arguments else "docs/sandbox")
    if "--dashboard-only" in sys.argv:
        theme = "dark" if "--dark" in sys.argv else "light"
        take_dashboard(Path(arguments[0] if arguments else "docs/images"), theme)
    else:
        if "--help-only" not in sys.argv:
            take(where)
        take_help(where)
