"""Unit tests of bot/render_group.py and the group kinds of bot/callbacks.py."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.core import callbacks
from bot.core.render import MAX_MESSAGE_LENGTH
from bot.group.render import (
    MAX_POLL_EXPLANATION,
    MAX_POLL_OPTION,
    MAX_POLL_QUESTION,
    as_poll,
    board_lines,
    leaderboard,
    option_counts,
    pick_toast,
    poll_spec,
    post_message,
    question_message,
    reveal_message,
    tap_toast,
)
from bot.sandbox.html_check import telegram_length
from content.grading import Choice, Selection, grade
from content.group_rules import answer_points
from content.model import MultipleAnswer, Question, SingleAnswer, TrueFalseAnswer
from storage.group_store import GroupSession, ScoreRow
from tests.support.quizzes import (
    EN,
    LOCALES,
    NASTY,
    YO,
    make_question,
    make_quiz,
    nasty_quiz,
    worst_case_quiz,
)
from tests.support.quizzes import text as localized
from tests.support.quizzes import visible as shown

BIG = 10**17  # the largest id the codec takes


def test_group_callbacks_round_trip_and_fit_64_bytes() -> None:
    for tap in (
        callbacks.GroupAnswer(BIG, BIG, 9),
        callbacks.GroupPick(BIG, BIG, 9),
        callbacks.GroupSubmit(BIG, BIG),
        callbacks.GroupReveal(BIG, BIG),
    ):
        data = tap.encode()
        assert len(data.encode()) <= 64
        assert callbacks.decode(data) == tap
        assert tap.chats == callbacks.GROUPS
    for forged in ("1:ga:1:2", "1:ga:01:2:3", "1:gr:1:2:3", "2:gr:1:2", "1:ga:-1:0:0", None):
        assert callbacks.decode(forged) is None


@pytest.mark.parametrize("locale", LOCALES)
def test_worst_case_question_and_reveal_fit_one_message(locale: object) -> None:
    quiz, question = worst_case_quiz("😀")
    asked = question_message(quiz, question, 0, 1, BIG, 600, 12345, locale)  # type: ignore[arg-type]
    assert telegram_length(shown(asked)) <= MAX_MESSAGE_LENGTH
    assert asked.markup is not None
    data = [b.callback_data for row in asked.markup.inline_keyboard for b in row]
    assert all(isinstance(d, str) and len(d.encode()) <= 64 for d in data)
    assert len(data) == len(question.options)  # one per option: the keyboard only answers
    counts = {Choice(i): 99999 for i in range(len(question.options))}
    revealed = reveal_message(quiz, question, 0, 1, counts, 99999, locale)  # type: ignore[arg-type]
    assert telegram_length(shown(revealed)) <= MAX_MESSAGE_LENGTH
    assert revealed.markup is None


def test_reveal_marks_the_right_option_counts_and_escapes() -> None:
    quiz = nasty_quiz()
    question = quiz.questions[0]
    text = shown(reveal_message(quiz, question, 0, 2, {Choice(1): 3}, 3, EN))
    assert f"✅ B. opt0b {NASTY} · 3 chose it" in text
    assert f"▫️ A. opt0a {NASTY} · 0 chose it" in text
    assert "👥 3 answered" in text and f"E0 {NASTY}" in text
    assert "Question 1 of 2" in text
    assert "ẹni" not in text
    assert "ló yàn án" in shown(reveal_message(quiz, question, 0, 2, {Choice(1): 3}, 3, YO))


def test_boards_escape_names_and_rank_with_medals() -> None:
    rows = [
        ScoreRow(1, NASTY, 1900, 2, 2, 3.25),
        ScoreRow(2, "Bo", 900, 1, 2, 8.0),
        ScoreRow(3, "Cy", 0, 0, 1, 1.0),
        ScoreRow(4, "", 0, 0, 1, 2.0),
    ]
    text = shown_text(leaderboard(f"T {NASTY}", True, rows, rows[:1], EN))
    assert text.startswith(f"📊 This quiz: T {NASTY}")
    assert "🏆 All-time in this chat" in text
    assert shown_text(leaderboard("T", False, [], [], EN)).startswith("📊 Last quiz: T")
    lines = board_lines(rows, EN).splitlines()
    assert lines[1].startswith("🥈 \u2068Bo\u2069: <b>900</b> points · 1/2 right · 8.0 s")
    assert lines[3].startswith("4. (no name):")
    assert "&lt;b&gt;" in lines[0] and "<b>Tom" not in lines[0]
    assert board_lines([], EN) == "No answers yet."
    assert (
        len(board_lines([ScoreRow(n, "x", 0, 0, 0, 0) for n in range(30)], EN).splitlines()) == 10
    )


def test_poll_spec_fits_telegram_limits_and_continues_the_explanation() -> None:
    quiz, question = worst_case_quiz()
    spec = poll_spec(quiz, question, 4, 9, EN)
    assert spec.question.startswith("[5/9] ") and len(spec.question) <= MAX_POLL_QUESTION
    assert all(len(option) <= MAX_POLL_OPTION for option in spec.options)
    assert spec.explanation is not None and len(spec.explanation) <= MAX_POLL_EXPLANATION
    assert spec.followup is not None and "question 5" in shown_text(spec.followup)
    short = make_question("s", "Short?", ["a", "b"], 1, "Because.")
    small = poll_spec(make_quiz([short]), short, 0, 1, EN)
    assert (small.question, small.options, small.correct) == ("[1/1] Short?", ("a", "b"), (1,))
    assert small.explanation == "Because." and small.followup is None


def shown_text(html_text: str) -> str:
    from bot.sandbox.html_check import visible_text

    return visible_text(html_text, "HTML")


def _multiple(question: Question, right: frozenset[int]) -> Question:
    return Question(
        question.id, question.text, question.options, explanation=question.explanation,
        key=MultipleAnswer(right),
    )  # fmt: skip


@pytest.mark.parametrize("locale", LOCALES)
def test_worst_case_multiple_question_and_reveal_fit_one_message(locale: object) -> None:
    quiz, single = worst_case_quiz("😀")
    question = _multiple(single, frozenset({0, 9}))
    asked = question_message(quiz, question, 0, 1, BIG, 600, 12345, locale)  # type: ignore[arg-type]
    assert telegram_length(shown(asked)) <= MAX_MESSAGE_LENGTH
    assert asked.markup is not None
    taps = [
        callbacks.decode(str(b.callback_data)) for row in asked.markup.inline_keyboard for b in row
    ]
    assert taps == [
        *(callbacks.GroupPick(BIG, 0, i) for i in range(10)),
        callbacks.GroupSubmit(BIG, 0),
    ]
    counts = {Selection(frozenset(range(10))): 99999}  # everyone picked every option
    revealed = reveal_message(quiz, question, 0, 1, counts, 0, locale)  # type: ignore[arg-type]
    assert telegram_length(shown(revealed)) <= MAX_MESSAGE_LENGTH


def test_a_multiple_question_shows_no_selection_and_its_reveal_counts_each_option() -> None:
    question = Question(
        "m", localized("Which?"), tuple(localized(o) for o in ("w", "x", "y", "z")),
        key=MultipleAnswer(frozenset({0, 2})),
    )  # fmt: skip
    quiz = make_quiz([question])
    posted = post_message(quiz, question, 7, 0, EN)
    labels = [b.text for row in posted.markup.inline_keyboard for b in row]  # type: ignore[union-attr]
    assert labels == ["A. w", "B. x", "C. y", "D. z", "✅ Submit my answer"]
    # Bo picked A and C, Cy A and B, Di A and C
    counts = {Selection(frozenset({0, 2})): 2, Selection(frozenset({0, 1})): 1}
    assert option_counts(question, counts) == [3, 1, 2, 0]
    text = shown(reveal_message(quiz, question, 0, 1, counts, 2, EN))
    for line in ("✅ A. w · 3 chose it", "❌ B. x · 1 chose it", "✅ C. y · 2 chose it",
                 "❌ D. z · 0 chose it", "👥 3 answered, 2 fully right"):  # fmt: skip
        assert line in text
    assert pick_toast(Selection(frozenset({0, 2})), EN) == (
        "Your selection: A, C — tap ✅ Submit my answer."
    )
    assert pick_toast(Selection(frozenset()), EN).startswith("Your selection is empty")


def test_credit_scales_the_points_of_a_right_answer() -> None:
    multiple = Question(
        "m", localized("Which?"), tuple(localized(o) for o in "abcd"),
        key=MultipleAnswer(frozenset({0, 1, 3})),
    )  # fmt: skip
    true_false = Question("t", localized("True?"), (), key=TrueFalseAnswer(False))

    def points(question: Question, response: Choice | Selection, elapsed: float) -> int:
        return answer_points(grade(question, response).credit, elapsed, 30)

    assert points(multiple, Selection(frozenset({0, 1, 3})), 0) == 1000
    assert points(multiple, Selection(frozenset({0, 1, 2})), 0) == 333
    assert points(multiple, Selection(frozenset({0, 1, 2})), 30) == 167
    assert points(multiple, Selection(frozenset({2})), 0) == 0
    assert points(true_false, Choice(1), 0) == 1000 and points(true_false, Choice(0), 0) == 0


WEIGHTED = Question(
    "w", localized("Who?"), tuple(localized(o) for o in ("Grant", "His wife", "No one")),
    key=SingleAnswer(0, (Decimal(100), Decimal(50), Decimal(-100))),
)  # fmt: skip
TIMED = GroupSession(
    id=1, chat_id=-1, chat_type="group", quiz_id="q", question_ids=("w",), seconds=30,
    mode="buttons", language="en", started_by=1, started_at=0.0, position=0,
    finished_at=None, outcome=None,
)  # fmt: skip


def test_a_weighted_single_earns_its_share_of_the_points_or_loses_them() -> None:
    half, down = grade(WEIGHTED, Choice(1)), grade(WEIGHTED, Choice(2))
    assert answer_points(half.credit, 0, 30) == 500
    assert answer_points(down.credit, 0, 30) == -1000
    assert answer_points(down.credit, 30, 30) == -500
    assert tap_toast(TIMED, WEIGHTED, half, 500, EN) == (
        "🟡 Partly right (1/2): +500 points. Your answer stands."
    )
    assert tap_toast(TIMED, WEIGHTED, down, -1000, EN).startswith("❌ Not quite (-1): -1000 points")


def test_a_weighted_question_is_never_a_poll_and_its_reveal_shows_the_weights() -> None:
    assert not as_poll(WEIGHTED)
    assert as_poll(make_question("s", "Short?", ["a", "b"], 1))
    quiz = make_quiz([WEIGHTED])
    counts = {Choice(0): 2, Choice(1): 3, Choice(2): 1}
    text = shown(reveal_message(quiz, WEIGHTED, 0, 1, counts, 2, EN))
    for line in ("✅ A. Grant (100%) · 2 chose it", "▫️ B. His wife (50%) · 3 chose it",
                 "▫️ C. No one (-100%) · 1 chose it", "👥 6 answered, 2 fully right"):  # fmt: skip
        assert line in text
