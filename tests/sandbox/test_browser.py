"""The sandbox in a real browser: `python -m bot sandbox` started as a newcomer starts it, the
page opened in headless Chromium (Debian's, through Selenium and chromedriver), the seed quiz
taken by clicking its buttons, the reveal (with when its card comes back) and the score read
off the page; the question missed practised, its long explanation collapsed until a tap, and
/progress's chart of the reviews ahead shown; then the bot admin uploads a bank full of markup
through the page, and a learner sees it as text.

In CI a missing browser fails these tests; elsewhere they are skipped (`browser_ready`,
tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.config import DEFAULT_CONTENT_DIR
from bot.core.render import number_text
from content.grading import right_choices
from content.loader import load_bank_file
from content.model import NumericAnswer, TrueFalseAnswer, TypedAnswer
from tests.support import browser
from tests.support.first_hour import first_hour
from tests.support.sandbox import HOSTILE_BANK, label_is, right_answers, sandbox_process

QUIZ_ID = "model-pipeline-parallelism"


@pytest.mark.timeout(240)
def test_the_seed_quiz_is_played_by_clicking_in_the_page(
    browser_ready: None, tmp_path: Path
) -> None:
    right = right_answers()
    with (
        sandbox_process(tmp_path) as sandbox,
        browser.chromium(tmp_path / "profile") as driver,
    ):
        browser.open_page(driver, sandbox.url + "?as=emma")
        field = driver.find_element("id", "text")
        field.send_keys(f"/quiz {QUIZ_ID}")
        driver.find_element("id", "send").click()

        for number in range(1, 9):
            question = browser.question(driver, number)
            asked = next(text for text in right if text in question["text"])
            correct = [
                i for i, label in enumerate(question["buttons"]) if label_is(label, right[asked])
            ]
            assert len(correct) == 1, question["buttons"]
            choice = correct[0] if number > 1 else (correct[0] + 1) % len(question["buttons"])
            buttons = driver.find_elements("css selector", f"#{question['id']} .keyboard button")
            buttons[choice].click()  # the first one wrong, the others right

            revealed = browser.until(
                f"the reveal of question {number}",
                lambda i=question["id"]: browser.find(
                    driver, lambda m: m["id"] == i and "💡" in m["text"] and not m["buttons"]
                ),
                driver,
            )
            assert "✅" in revealed["text"]
            assert "↻ back" in revealed["text"].splitlines()[-2]  # last, above the time
            if number == 1:
                assert "← your answer" in revealed["text"] and "❌" in revealed["text"]
                toast = browser.until(
                    "the toast",
                    lambda: driver.find_elements("css selector", "#toasts .toast"),
                    driver,
                )
                assert "Not quite" in toast[0].text

        summary = browser.until(
            "the score", lambda: browser.find(driver, lambda m: "Score:" in m["text"]), driver
        )
        assert "Score: 7/8" in summary["text"], summary["text"]
        assert "7/8" in summary["bold"]  # <b> drawn as bold
        assert summary["buttons"]  # Practise, Take it again, All quizzes

        # practise the one missed: a round of exactly it, its explanation folded
        practise = browser.button(driver, summary["id"], "🎯 Practise the 1 you missed")
        practise.click()
        question = browser.question(driver, 1, 1, what="the practice question", heading="Practice")
        asked = next(text for text in right if text in question["text"])
        choice = next(
            i for i, label in enumerate(question["buttons"]) if label_is(label, right[asked])
        )
        driver.find_elements("css selector", f"#{question['id']} .keyboard button")[choice].click()
        revealed = browser.until(
            "the practice reveal",
            lambda: browser.find(
                driver, lambda m: m["id"] == question["id"] and "↻ back" in m["text"]
            ),
            driver,
        )
        assert "↻ back" in revealed["text"].splitlines()[-2]
        folded = driver.find_element("css selector", f"#{question['id']} blockquote.expandable")
        assert driver.execute_script(
            "return arguments[0].scrollHeight > arguments[0].clientHeight + 4", folded
        ), "the long explanation shows collapsed"
        folded.click()
        assert driver.execute_script(
            "return arguments[0].scrollHeight <= arguments[0].clientHeight + 1", folded
        ), "a tap expands it"
        browser.until(
            "the end of the practice round",
            lambda: browser.find(driver, lambda m: "Practice round finished" in m["text"]),
            driver,
        )

        # /progress: the reviews due ahead, as a chart
        field = driver.find_element("id", "text")
        field.send_keys("/progress")
        driver.find_element("id", "send").click()
        chart = browser.until(
            "the /progress chart",
            lambda: browser.find(driver, lambda m: "Reviews due in the next 30 days" in m["text"]),
            driver,
        )
        assert driver.execute_script(
            "const img = document.querySelector(`#${arguments[0]} .photo img`);"
            "return img !== null && img.complete && img.naturalWidth > 0 && img.naturalWidth <= 1280",
            chart["id"],
        )

        # a bank full of markup, uploaded through the page by the bot admin, shows as text
        bank = tmp_path / "hostile.yaml"
        bank.write_text(HOSTILE_BANK, encoding="utf-8")
        from selenium.webdriver.support.ui import Select

        Select(driver.find_element("id", "person")).select_by_value("funmi")
        driver.find_element("id", "attach").send_keys(str(bank))
        driver.find_element("id", "text").send_keys("/import")
        driver.find_element("id", "send").click()
        browser.until(
            "the import", lambda: browser.find(driver, lambda m: "imported" in m["text"]), driver
        )
        Select(driver.find_element("id", "person")).select_by_value("emma")
        driver.find_element("id", "text").send_keys("/quiz hostile")
        driver.find_element("id", "send").click()
        question = browser.question(driver, 1, 1, what="the hostile question")
        assert (
            '<script>window.pwned = 1</script>"><img src=x onerror="window.pwned = 2">'
            in question["text"]
        )
        assert any("<img src=x onerror=window.pwned=3>" in label for label in question["buttons"])
        assert (
            driver.execute_script(
                "return [...document.querySelectorAll('#messages img, #messages script')]"
                ".filter((e) => !e.parentElement.classList.contains('photo')).length"
            )
            == 0
        )  # the only pictures are the bot's photos (the /progress chart)
        assert driver.execute_script("return window.pwned === undefined")


def _help_on_screen(driver: Any, person: str, where: str, expect: str) -> dict[str, Any]:
    """`person` sends /help `where` (private or group); the reply, once it shows `expect`,
    checked to fit a phone's screen: no wider than the window, no taller than the chat."""
    browser.act_as(driver, person)
    driver.execute_script("document.getElementById(arguments[0]).click()", f"chat-{where}")
    before = {m["id"] for m in browser.messages(driver)}
    browser.say(driver, "/help")
    found = browser.until(
        f"{person}'s /help",
        lambda: browser.find(driver, lambda m: m["id"] not in before and expect in m["text"]),
        driver,
    )
    _fits_the_screen(driver, found["id"])
    return found


def _fits_the_screen(driver: Any, message_id: str) -> None:
    box = driver.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "const chat = document.querySelector('main').getBoundingClientRect();"
        "return [r.width, r.height, window.innerWidth, chat.height];",
        message_id,
    )
    width, height, window_width, chat_height = box
    if not (width <= window_width and height <= chat_height):
        driver.save_screenshot(f"/tmp/cmd24-help-{message_id}.png")
    assert width <= window_width and height <= chat_height, (message_id, box)


@pytest.mark.timeout(240)
def test_help_fits_a_phone_screen_for_each_person(browser_ready: None, tmp_path: Path) -> None:
    """/help for a learner, the bot admin (a teacher) and a group's admin at phone width: each
    message, and each topic tapped, fits the screen (the teacher's is the picture in docs/)."""
    with (
        sandbox_process(tmp_path) as sandbox,
        browser.chromium(tmp_path / "profile") as driver,
    ):
        browser.open_page(driver, sandbox.url + "?as=emma")
        _help_on_screen(driver, "emma", "private", "/progress")
        group = _help_on_screen(driver, "chidi", "group", "/groupquiz")
        assert "/assign" in group["text"] and "/report" in group["text"]
        teacher = _help_on_screen(driver, "funmi", "private", "/import")
        assert "/groupquiz" in teacher["text"]
        overview = teacher["buttons"]
        for index, topic in enumerate(overview):
            driver.find_elements("css selector", f"#{teacher['id']} .keyboard button")[
                index
            ].click()
            page = browser.until(
                f"the topic {topic}",
                lambda t=topic: browser.find(
                    driver,
                    lambda m: (
                        m["id"] == teacher["id"] and t in m["text"] and m["buttons"] != overview
                    ),
                ),
                driver,
            )
            _fits_the_screen(driver, page["id"])
            driver.find_elements("css selector", f"#{teacher['id']} .keyboard button")[0].click()
            browser.until(
                "the overview again",
                lambda: browser.find(
                    driver, lambda m: m["id"] == teacher["id"] and m["buttons"] == overview
                ),
                driver,
            )


@pytest.mark.timeout(300)
def test_a_new_teachers_first_hour(browser_ready: None, tmp_path: Path) -> None:
    """/help, a GIFT file imported, a group quiz from the menu, a question pushed and homework
    set through the chat picker; a learner who left the quiz at question 2 opens the homework
    from its link and starts afresh at question 1; then /report has the grid with her row."""
    with (
        sandbox_process(tmp_path) as sandbox,
        browser.chromium(tmp_path / "profile") as driver,
    ):
        rows = first_hour(driver, sandbox.url, tmp_path)
    by_name = {row[0]: row for row in rows[1:]}
    assert rows[0][:4] == ["name", "user id", "score", "total"]
    emma = by_name["Emma"]
    assert emma[2:4] == ["3", "3"]  # the homework's attempt, finished: 3/3
    credit = rows[0].index("credit")
    assert emma[credit : credit + 4] == ["3", "1", "1", "1"]  # the grid: every mark 1


EXAM_ID = "data-parallelism-zero"


def _exam_answers() -> dict[str, list[str]]:
    """The third bank's question text -> what answers it right, as the page shows it: the
    labels of its right options (True/False for a true/false question), or the reply to type."""
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / EXAM_ID / f"{EXAM_ID}.yaml", "en").quiz
    assert quiz is not None
    answers = {}
    for q in quiz.questions:
        match q.key:
            case NumericAnswer(value):
                right = [number_text(value)]
            case TypedAnswer(accepted):
                right = [accepted[0].get("en", "en")]
            case TrueFalseAnswer(value):
                right = ["True" if value else "False"]
            case _:
                right = [q.options[i].translations["en"] for i in sorted(right_choices(q))]
        answers[q.text.translations["en"]] = right
    return answers


def _panel(driver: Any, shows: str) -> dict[str, Any]:
    """The exam's panel (the message with its hand-in button), once it shows `shows`."""
    return browser.until(
        f"the exam's panel with {shows!r}",
        lambda: browser.find(
            driver, lambda m: any("Hand in" in b for b in m["buttons"]) and shows in m["text"]
        ),
        driver,
    )


def _click(driver: Any, message: dict[str, Any], label: str) -> None:
    """Click the button of `message` that shows `label` (an option's, after its letter), as
    soon as it is drawn (the page redraws a message when it is edited)."""
    from selenium.common.exceptions import StaleElementReferenceException

    def clicked() -> bool | None:
        try:
            buttons = driver.find_elements("css selector", f"#{message['id']} .keyboard button")
            for button in buttons:
                shown = button.text
                if shown == label or label_is(shown.lstrip("●☐☑ "), label):
                    button.click()
                    return True
        except StaleElementReferenceException:
            return None
        return None

    browser.until(f"the button {label!r}", clicked, driver)


def _chosen(message: dict[str, Any], count: int, label: str) -> bool:
    """A panel with `count` options chosen, the option `label` among them."""
    chosen = [b[2:] for b in message["buttons"] if b.startswith(("● ", "☑ "))]
    return len(chosen) == count and any(label_is(b, label) for b in chosen)


def _send(driver: Any, text: str) -> None:
    driver.find_element("id", "text").send_keys(text)
    driver.find_element("id", "send").click()


@pytest.mark.timeout(240)
def test_an_exam_is_taken_in_the_page_one_answer_changed_then_the_review_read(
    browser_ready: None, tmp_path: Path
) -> None:
    """The third bank as an exam: ten questions drawn, the first answered wrong then changed,
    the others answered right (typed ones by sending the reply), handed in, the score with
    its two sections read, and the review paged."""
    answers = _exam_answers()
    with (
        sandbox_process(tmp_path) as sandbox,
        browser.chromium(tmp_path / "profile") as driver,
    ):
        browser.open_page(driver, sandbox.url + "?as=emma")
        _send(driver, f"/exam {EXAM_ID}")
        for number in range(1, 11):
            panel = _panel(driver, f"Question {number} of 10 · ⏱")
            asked = next(text for text in answers if text in panel["text"])
            right = answers[asked]
            options = [b for b in panel["buttons"] if ". " in b]
            if not options:  # a numeric or typed question: the reply is typed
                _send(driver, right[0])
                panel = _panel(driver, f"Your answer: {right[0]}")
            elif number == 1:  # answered wrong first, then changed
                wrong = next(b for b in options if not any(label_is(b, r) for r in right))
                _click(driver, panel, wrong.split(". ", 1)[1])
                first = _panel(driver, "Your answer:")
                letter = wrong.split(".", 1)[0]
                assert f"Your answer: {letter}" in first["text"]
                assert "✅" not in first["text"] and "❌" not in first["text"]
            if options:
                for count, label in enumerate(right, start=1):
                    _click(driver, panel, label)
                    panel = browser.until(
                        f"{label!r} chosen",
                        lambda n=count, wanted=label: browser.find(
                            driver, lambda m: _chosen(m, n, wanted)
                        ),
                        driver,
                    )
            if number < 10:
                _click(driver, panel, "Next ▶️")
        _click(driver, panel, "🏁 Hand in…")
        confirm = _panel(driver, "You answered 10 of 10 questions.")
        _click(driver, confirm, "✅ Hand in now")
        result = browser.until(
            "the score", lambda: browser.find(driver, lambda m: "Score:" in m["text"]), driver
        )
        assert "Score: 10 / 10 (100 %) — passed ✅" in result["text"], result["text"]
        assert "• Data parallelism: 5 / 5" in result["text"]
        assert "• ZeRO: 5 / 5" in result["text"]
        assert "10 / 10" in result["bold"]
        _click(driver, result, "📖 Review the answers")
        page = browser.until(
            "the review",
            lambda: browser.find(driver, lambda m: "📖 Review" in m["text"] and "💡" in m["text"]),
            driver,
        )
        assert "Question 1 of 10" in page["text"] and "✅" in page["text"]
        assert "Counted: 1" in page["text"]
        _click(driver, page, "Next ▶️")
        browser.until(
            "the review's second page",
            lambda: browser.find(
                driver, lambda m: m["id"] == page["id"] and "Question 2 of 10" in m["text"]
            ),
            driver,
        )
