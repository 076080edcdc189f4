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


def question(driver: Any, number: int, of: int = 8, what: str | None = None) -> dict[str, Any]:
    """Wait for `Question <number> of <of>` with its buttons, and give that message."""
    heading = f"Question {number} of {of}"
    return until(
        what or f"question {number}",
        lambda: find(driver, lambda m: heading in m["text"] and bool(m["buttons"])),
        driver,
    )
