"""A teacher's first hour in the sandbox page, played in a browser as a person plays it: the
browser test checks it (tests/sandbox/test_browser.py), and the screenshots for the teachers'
guide are taken along the way (tests/sandbox/screenshots.py).

Funmi runs the bot and the study group: she asks for /help, imports a GIFT file, starts a
group quiz from the menu of quizzes, pushes a question through Telegram's chat picker and
sets homework for the group through it. Emma, who left the quiz at its question 2 before the
homework existed, opens the homework from the group's button: it starts afresh, at question
1. Then Funmi's /report has the grid with Emma's row, and /stats its chart."""

from __future__ import annotations

import csv
import io
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support import browser

QUIZ_ID = "week-3"
GIFT = """::w1:: Two plus two? {=four ~three ~five}

::w2:: The capital of France? {=Paris ~Lyon ~Nice}

::w3:: The colour of a clear sky? {=blue ~green ~red}
"""
RIGHT = {"Two plus two?": "four", "The capital of France?": "Paris", "clear sky?": "blue"}

# takes the screenshot of that name: of the page, or of one element of it
Shoot = Callable[[str, Any], None]


def _as(driver: Any, person: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "person")).select_by_value(person)


def _chat(driver: Any, where: str) -> None:
    driver.find_element("css selector", f"label[for=chat-{where}]").click()


def _say(driver: Any, text: str) -> None:
    field = driver.find_element("id", "text")
    field.send_keys(text)
    driver.find_element("id", "send").click()


def _message(driver: Any, what: str, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return browser.until(what, lambda: browser.find(driver, test), driver)


def _click(driver: Any, message_id: str, label: str) -> None:
    """The button of that message whose label starts with `label`."""
    buttons = driver.find_elements("css selector", f"#{message_id} .keyboard button")
    [button] = [b for b in buttons if b.text.startswith(label)]
    button.click()


def _pick(driver: Any, button: str, chat: str, shoot: Shoot | None = None) -> None:
    """Press the reply keyboard's chat-picking `button`, then the chat titled `chat`."""
    keyboard = browser.until(
        "the chat picker's buttons",
        lambda: driver.find_elements("css selector", "#reply-keyboard button"),
        driver,
    )
    [pressed] = [b for b in keyboard if b.text == button]
    pressed.click()
    choices = browser.until(
        "the chats that fit",
        lambda: driver.find_elements("css selector", "#picker[open] .picker-chats button"),
        driver,
    )
    if shoot is not None:
        driver.execute_script("for (const t of document.querySelectorAll('.toast')) t.remove()")
        shoot("chat-picker.png", None)
    [chosen] = [c for c in choices if c.text.startswith(chat)]
    chosen.click()


def _answer_right(driver: Any, count: int) -> None:
    for number in range(1, count + 1):
        asked = browser.question(driver, number, 3, what=f"Emma's question {number}")
        text = next(t for t in RIGHT if t in asked["text"])
        label = next(b for b in asked["buttons"] if b.split(". ", 1)[-1] == RIGHT[text])
        _click(driver, asked["id"], label)
        browser.until(
            f"the reveal of question {number}",
            lambda i=asked["id"]: browser.find(driver, lambda m: m["id"] == i and not m["buttons"]),
            driver,
        )


def _photos(driver: Any) -> list[Any]:
    return list(driver.find_elements("css selector", "#messages li .photo img"))


def first_hour(driver: Any, url: str, folder: Path, shoot: Shoot | None = None) -> list[list[str]]:
    """Play the hour; the rows of the report's file (CSV)."""
    driver.get(url + "?as=funmi")
    browser.until("ready", lambda: driver.find_elements("css selector", "body[data-ready]"), driver)
    before = len(browser.messages(driver))
    _say(driver, "/help")
    browser.until("the help", lambda: len(browser.messages(driver)) >= before + 2, driver)

    bank = folder / f"{QUIZ_ID}.gift"
    bank.write_text(GIFT, encoding="utf-8")
    driver.find_element("id", "attach").send_keys(str(bank))
    _say(driver, "/import")
    imported = _message(driver, "the import", lambda m: "imported" in m["text"])
    assert "from the file's name" in imported["text"]  # what was assumed, said
    _message(driver, "the next steps", lambda m: "What next" in m["text"] and m["buttons"])

    # Emma starts the quiz and leaves it at question 2, before there is any homework
    _as(driver, "emma")
    _say(driver, f"/quiz {QUIZ_ID}")
    _answer_right(driver, 1)
    browser.question(driver, 2, 3, what="Emma's question 2, left there")

    # a group quiz from the menu of quizzes: the quiz, then the time a question
    _as(driver, "funmi")
    _chat(driver, "group")
    _say(driver, "/groupquiz")
    menu = _message(driver, "the menu of quizzes", lambda m: "Which quiz?" in m["text"])
    _click(driver, menu["id"], QUIZ_ID)
    times = _message(driver, "the times", lambda m: "how long" in m["text"] and m["buttons"])
    _click(driver, times["id"], "⏱ 30 s")
    browser.question(driver, 1, 3, what="the group's question 1")
    _say(driver, "/stopquiz")
    _message(driver, "the group's results", lambda m: "final results" in m["text"])

    # a question pushed to the group through the chat picker
    _chat(driver, "private")
    _say(driver, f"/push {QUIZ_ID}")
    _message(driver, "the push's question", lambda m: "Where should" in m["text"])
    _pick(driver, "👥 Pick a group", "Study group", shoot)
    _message(driver, "the push done", lambda m: "posted to Study group" in m["text"])

    # homework for the group, from the private chat, through the picker
    _say(driver, f"/assign {QUIZ_ID} 2d")
    _message(driver, "the homework's question", lambda m: "Which group gets" in m["text"])
    _pick(driver, "👥 Pick a group", "Study group")
    _message(driver, "the homework set", lambda m: "is set in Study group" in m["text"])

    # Emma opens it from the group's button: inside the page, afresh at question 1
    _as(driver, "emma")
    _chat(driver, "group")
    post = _message(driver, "the homework's post", lambda m: "Homework #1" in m["text"])
    link = driver.find_element("css selector", f"#{post['id']} .keyboard a")
    link.click()
    _message(driver, "the homework's intro", lambda m: "Homework:" in m["text"])
    _answer_right(driver, 3)
    _message(driver, "her score", lambda m: "3/3" in m["text"])

    # Funmi's report: the grid as a picture, with Emma's row in the file
    _as(driver, "funmi")
    photos = len(_photos(driver))
    _say(driver, f"/report {QUIZ_ID}")
    grid = browser.until("the grid", lambda: _photos(driver)[photos:], driver)[0]
    document = browser.until(
        "the report's file",
        lambda: [
            a
            for a in driver.find_elements("css selector", "#messages .document a")
            if "report-" in a.text
        ],
        driver,
    )[-1]
    with urllib.request.urlopen(document.get_attribute("href")) as answer:
        rows = list(csv.reader(io.StringIO(answer.read().decode("utf-8-sig"))))
    if shoot is not None:
        shoot("report-grid.png", _shown(driver, grid))
        photos = len(_photos(driver))
        _say(driver, "/stats")
        chart = browser.until("the /stats chart", lambda: _photos(driver)[photos:], driver)[0]
        shoot("stats-chart.png", _shown(driver, chart))
    return rows


def _shown(driver: Any, image: Any) -> Any:
    """The message of a picture, fully drawn, as a phone shows it: its bubble."""
    browser.until(
        "the picture drawn",
        lambda: driver.execute_script("return arguments[0].complete", image),
        driver,
    )
    driver.execute_script("for (const t of document.querySelectorAll('.toast')) t.remove()")
    return driver.execute_script("return arguments[0].closest('.bubble')", image)
