"""Debian's Chromium, headless, driven by Selenium through Debian's chromedriver: explicit
paths, since Selenium's own downloader cannot reach the internet here."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

CHROMIUM = os.environ.get("QUIZ_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("QUIZ_TEST_CHROMEDRIVER", "/usr/bin/chromedriver")
# Chromium as root, on a machine without a network or a screen (CI)
FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-extensions",
    "--disable-default-apps", "--mute-audio", "--lang=en-US",
)  # fmt: skip


def missing() -> str | None:
    """Why the browser cannot run here, or None."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not Path(path).is_file():
            return f"{path} is missing: apt-get install -y chromium chromium-driver ({package})"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is missing: pip install -e '.[dev]'"
    return None


@contextmanager
def chromium(profile: Path, width: int = 420, height: int = 860) -> Iterator[object]:
    """A headless Chromium window of that size (a phone's, by default), in a fresh profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    service = Service(executable_path=CHROMEDRIVER, log_output=os.devnull)
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager: never download anything
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def open_page(driver: Any, url: str) -> None:
    """Open the sandbox's page at `url` and wait until it has drawn its state."""
    driver.get(url)
    until(
        "the page is ready",
        lambda: driver.find_elements("css selector", "body[data-ready]"),
        driver,
    )


def until(what: str, check: Callable[[], T | None], driver: Any, timeout: float = 20) -> T:
    """Wait until `check()` gives something (looked at every 50 ms); fail saying what."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            last = [m["text"] for m in messages(driver)][-3:]
            raise AssertionError(f"not seen in {timeout}s: {what}\nlast messages: {last}")
        time.sleep(0.05)  # the polling interval of the wait, not a wait for a result


READ_MESSAGES = """
return [...document.querySelectorAll('#messages li')].map((li) => ({
  id: li.id,
  text: li.innerText,
  bold: [...li.querySelectorAll('.text b')].map((b) => b.textContent),
  buttons: [...li.querySelectorAll('.keyboard button')].map((b) => b.textContent),
}));
"""


def messages(driver: Any) -> list[dict[str, Any]]:
    """What the page shows of the open chat, read at one instant (the page redraws a message
    when it is edited, so elements found earlier may be gone)."""
    return list(driver.execute_script(READ_MESSAGES))


def find(driver: Any, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
    return next((m for m in messages(driver) if test(m)), None)


def question(
    driver: Any, number: int, of: int = 8, what: str | None = None, heading: str = "Question"
) -> dict[str, Any]:
    """Wait for `<heading> <number> of <of>` with its buttons, and give that message."""
    heading = f"{heading} {number} of {of}"
    return until(
        what or f"question {number}",
        lambda: find(driver, lambda m: heading in m["text"] and bool(m["buttons"])),
        driver,
    )


def button(driver: Any, message_id: str, text: str) -> Any:
    """The button of a message that shows `text`."""
    for element in driver.find_elements("css selector", f"#{message_id} .keyboard button"):
        if element.text == text:
            return element
    raise AssertionError(f"no button {text!r} under {message_id}")


# acting in the sandbox's page


def act_as(driver: Any, person: str) -> None:
    """Choose who the page acts as (a key of the sandbox's cast)."""
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "person")).select_by_value(person)


def say(driver: Any, text: str) -> None:
    """Send `text` into the open chat."""
    driver.find_element("id", "text").send_keys(text)
    driver.find_element("id", "send").click()


def press(driver: Any, message_id: str, index: int) -> None:
    """Press the message's `index`th button (negative: from the end)."""
    driver.find_elements("css selector", f"#{message_id} .keyboard button")[index].click()


def toast_seen(driver: Any, what: str) -> None:
    until(what, lambda: driver.find_elements("css selector", "#toasts .toast"), driver)


def play_group_quiz(
    driver: Any,
    quiz_id: str,
    admin: str,
    plans: tuple[dict[str, bool], ...],
    right: dict[str, str],
    is_label: Callable[[str, str], bool],
) -> None:
    """In the group: `admin` starts the quiz; for each plan (person -> answers right), those
    people answer the next question, the admin reveals it; after the last, /stopquiz and the
    final results. `right` maps a question's text to its right option's text."""
    driver.find_element("css selector", "label[for=chat-group]").click()
    act_as(driver, admin)
    say(driver, f"/groupquiz {quiz_id} 30")
    for number, plan in enumerate(plans, start=1):
        asked = question(driver, number, what=f"group question {number}")
        text = next(t for t in right if t in asked["text"])
        good = next(i for i, label in enumerate(asked["buttons"]) if is_label(label, right[text]))
        for person, ok in plan.items():
            act_as(driver, person)
            press(driver, asked["id"], good if ok else (good + 1) % 4)
            toast_seen(driver, f"{person}'s toast")
        act_as(driver, admin)
        say(driver, "/skip")  # the admin reveals it
        until(
            f"the reveal of group question {number}",
            lambda i=asked["id"]: find(driver, lambda m: m["id"] == i and not m["buttons"]),
            driver,
        )
    say(driver, "/stopquiz")
    until("the final results", lambda: find(driver, lambda m: "🏆" in m["text"]), driver)


def open_dashboard(driver: Any) -> None:
    """As the page's person, in private: /dashboard, then its Mini App button; the panel
    shown (the frame still loading)."""
    driver.find_element("css selector", "label[for=chat-private]").click()
    say(driver, "/dashboard")
    message = until(
        "the dashboard's button",
        lambda: find(driver, lambda m: "Open the dashboard" in " ".join(m["buttons"])),
        driver,
    )
    driver.find_element("css selector", f"#{message['id']} .keyboard button.web-app").click()
    until(
        "the Mini App panel",
        lambda: driver.find_element("id", "mini-app").is_displayed() or None,
        driver,
    )
