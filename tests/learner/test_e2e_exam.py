"""A learner's exam end to end: real Application, real HTTP, real SQLite, the stand-in.

The paper drawn once and resumed as it was; answers changed until handed in, never marked
before; the score with the penalty, per section, the time taken; the review page by page;
the clock on the server (a late tap refused, the job at the limit, a restart); and every path
by which an open exam's answers could be seen, closed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import DEFAULT_CONTENT_DIR, Settings
from bot.core import callbacks
from bot.sandbox import FakeBotApi, FakeUser
from content.loader import load_bank_file
from tests.support.exams import (
    EXAM_BANK,
    EXAM_ID,
    RIGHT,
    TEXTS,
    WRONG,
    Examinee,
    answer_right,
    item_of,
    page_turned,
    paper_of,
    stored,
)
from tests.support.harness import bank_settings, make_settings, running_bot
from tests.support.learner import Learner
from tests.support.room import ADA as TEACHER
from tests.support.room import GROUP_ID, Room

DRILL_FOLDER = DEFAULT_CONTENT_DIR / "parallelism-drill"
ADA = FakeUser(1201, "Ada", "en")
BO = FakeUser(1202, "Bo", "en")


class Clock:
    """The bot's clock, moved on by a test: the time limit is the server's."""

    def __init__(self) -> None:
        import time

        self.offset = 0.0
        self._time = time.time

    def __call__(self) -> float:
        return self._time() + self.offset


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    return bank_settings(api, tmp_path, {"mini": EXAM_BANK}, seed=True)


@pytest.fixture
async def bot(settings: Settings, clock: Clock) -> AsyncIterator[QuizApplication]:
    async with running_bot(settings, clock) as application:
        yield application


def examinee(api: FakeBotApi, user: FakeUser = ADA) -> Examinee:
    return Examinee(Learner(api, user))


def graded(text: str) -> bool:
    """Whether a text says right or wrong (what an open exam never says)."""
    return any(mark in text for mark in ("✅", "❌", "Correct", "Not quite", "right answer"))


async def test_the_paper_is_drawn_once_answers_change_and_a_resumed_exam_is_the_same(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    ada = examinee(api)
    intro_seen = len(ada.learner.messages())
    panel = await ada.start()
    intro = ada.learner.messages()[intro_seen]
    assert "📝 <b>Exam: Mini exam</b>" in intro.html
    assert "4 questions · ⏱ 5:00 for the whole exam" in intro.text
    assert "Sections: Sums, Words" in intro.text and "−0.25" in intro.text
    assert "Pass mark: 60 %" in intro.text and "Attempt 1 of 1" in intro.text
    paper = paper_of(settings.db_path, ADA.id)
    assert (
        len(paper) == 4
        and set(paper[:2]) <= {"n1", "n2", "n3"}
        and paper[2:]
        in (
            ["w1", "w2"],
            ["w2", "w1"],
        )
    )
    assert "Question 1 of 4 · ⏱ 5:00 left" in panel.text or "⏱ 4:5" in panel.text
    assert "Sums" in panel.text and TEXTS[paper[0]] in panel.text
    assert "Not answered yet." in panel.text

    wrong = WRONG[paper[0]]
    toast = await ada.choose(panel, wrong)
    assert toast["text"].startswith("Saved: ") and not graded(toast["text"])
    panel = await ada.panel("Your answer:")
    assert not graded(panel.text)
    toast = await ada.choose(panel, RIGHT[paper[0]])  # changed
    assert not graded(toast["text"])
    panel = await ada.panel(f"Your answer: {toast['text'][7]}")
    first = panel.message_id
    panel = await ada.next(panel)
    assert panel.message_id == first  # the same message, edited in place
    assert TEXTS[paper[1]] in panel.text

    # the same paper, where it was, after /exam again: the old panel loses its buttons
    seen = len(ada.learner.messages())
    await ada.learner.send(f"/exam {EXAM_ID}", "Welcome back: ⏱")
    panel = await ada.panel("Question 2 of 4", moved_from=first)
    assert not api.messages[(ADA.id, first)].buttons
    assert TEXTS[paper[1]] in panel.text
    assert paper_of(settings.db_path, ADA.id) == paper
    assert len(ada.learner.messages()) == seen + 2
    # nothing is an answer, nor a review of a card, before the end
    assert stored(settings.db_path, "SELECT COUNT(*) FROM answers WHERE user_id=?", ADA.id) == [
        (0,)
    ]
    assert stored(settings.db_path, "SELECT COUNT(*) FROM review_log") == [(0,)]
    previous = await ada.press(panel, "Previous")
    assert previous["text"] is None
    panel = await ada.panel("Question 1 of 4")
    assert "Your answer: " in panel.text and "Not answered" not in panel.text
    await ada.press(panel, "Clear my answer")
    panel = await ada.panel("Not answered yet.")


async def test_an_exam_is_marked_with_the_penalty_per_section_and_reviewed_page_by_page(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    """Right, wrong, unanswered and a multiple question: 2 right (1 + 1), one wrong (−0.25),
    one left out: 1.75 of 4, 43.8 %, not passed."""
    ada = examinee(api)
    answers: dict[str, str | list[str]] = {**RIGHT, "w2": ["red", "blue"]}
    panel = await ada.start()
    paper = paper_of(settings.db_path, ADA.id)
    answers[paper[1]] = WRONG[paper[1]]  # the second sum wrong
    del answers["w1"]  # the typed one left out
    result = await ada.hand_in(await ada.answer_all(panel, answers))
    assert "🏁 <b>Exam: Mini exam</b> — handed in" in result.html
    assert "Score: <b>1.75 / 4</b> (43.8 %) — not passed" in result.html
    assert "• Sums: 0.75 / 2" in result.text and "• Words: 1 / 2" in result.text
    assert "✅ 2 right · ❌ 1 wrong · ▫️ 1 unanswered (−0.25 for wrong answers)" in result.text
    assert "Time taken: 0:" in result.text and "of 5:00" in result.text
    assert not ada.panels()  # the last panel lost its buttons

    rows = stored(
        settings.db_path,
        "SELECT question_id, correct FROM answers WHERE user_id=? ORDER BY question_id",
        ADA.id,
    )
    assert sorted(rows) == sorted([(paper[0], 1), (paper[1], 0), ("w2", 1)])
    assert stored(settings.db_path, "SELECT COUNT(*) FROM review_log WHERE user_id=?", ADA.id) == [
        (3,)
    ]
    assert stored(
        settings.db_path, "SELECT score, total FROM attempts WHERE kind='exam' AND user_id=?",
        ADA.id,
    ) == [(1.75, 4)]  # fmt: skip

    # the review: its own message, one question a page, the right answer and why
    seen = len(ada.learner.messages())
    await ada.press(result, "Review the answers")
    page = await api.wait_for_bot_message(ADA.id, "📖 Review", after=seen)
    assert TEXTS[paper[0]] in page.text and "✅" in page.text and "Counted: 1" in page.text
    assert "💡" in page.text
    for number in range(2, 5):
        await ada.press(page, "Next")
        page = await page_turned(api, ADA.id, page.message_id, f"Question {number} of 4")
        item = paper[number - 1]
        assert TEXTS[item] in page.text
        if item == paper[1]:
            assert "❌" in page.text and "← your answer" in page.text
            assert "Counted: −0.25" in page.text
        if item == "w1":
            assert "Not answered." in page.text and "<b>cold</b>" in page.html
            assert "Counted: 0" in page.text
    assert [b["text"] for b in page.buttons] == ["◀️ Previous"]

    # one attempt, taken: /exam says so and shows the result again
    seen = len(ada.learner.messages())
    await ada.learner.send(f"/exam {EXAM_ID}", "it allows 1 attempt")
    again = await api.wait_for_bot_message(ADA.id, "Score:", after=seen)
    assert "1.75 / 4" in again.text

    # the review is open, so is a practice of what was answered wrong (not what was left out)
    seen = len(ada.learner.messages())
    await ada.press(result, "Practise the 1 you missed")
    practice = await api.wait_for_bot_message(ADA.id, "Practice 1 of 1", after=seen)
    assert TEXTS[paper[1]] in practice.text


async def test_a_tap_after_the_time_limit_is_refused_and_ends_the_exam(
    api: FakeBotApi, bot: QuizApplication, clock: Clock, settings: Settings
) -> None:
    ada = examinee(api)
    panel = await ada.start()
    paper = paper_of(settings.db_path, ADA.id)
    await ada.choose(panel, RIGHT[paper[0]])
    panel = await ada.panel("Your answer:")
    clock.offset = 5 * 60 + 1  # the five minutes are over
    seen = len(ada.learner.messages())
    toast = await ada.choose(panel, WRONG[paper[0]])
    assert toast["text"] == "⏱ Time is up: the exam is marked now."
    result = await api.wait_for_bot_message(ADA.id, "Score:", after=seen)
    assert "time is up" in result.text and "1 / 4" in result.text  # the answer before counts
    assert "Time taken: 5:00 of 5:00" in result.text
    assert stored(settings.db_path, "SELECT chosen FROM answers WHERE user_id=?", ADA.id) == [
        (0,)  # the right option (bank order), not the late one
    ]


async def test_the_job_ends_the_exam_at_its_time_limit(api: FakeBotApi, tmp_path: Path) -> None:
    quick = EXAM_BANK.replace("minutes: 5", "minutes: 0.05")  # three seconds
    settings = bank_settings(api, tmp_path, {"mini": quick})
    async with running_bot(settings):
        ada = examinee(api)
        panel = await ada.start()
        paper = paper_of(settings.db_path, ADA.id)
        await ada.choose(panel, RIGHT[paper[0]])
        result = await api.wait_for_bot_message(ADA.id, "— time is up", timeout=15)
        assert "Score: <b>1 / 4</b>" in result.html and not ada.panels()


async def test_a_restart_gives_no_time_and_loses_no_answer(api: FakeBotApi, tmp_path: Path) -> None:
    """Ada's exam runs when the bot stops; it starts again 4:58 later: two seconds are left,
    her answer is kept, the job re-armed from SQLite ends it."""
    settings = bank_settings(api, tmp_path, {"mini": EXAM_BANK})
    clock = Clock()
    ada = examinee(api, ADA)
    async with running_bot(settings, clock):
        panel = await ada.start()
        paper = paper_of(settings.db_path, ADA.id)
        await ada.choose(panel, RIGHT[paper[0]])
        await ada.panel("Your answer:")
    clock.offset = 5 * 60 - 2
    async with running_bot(settings, clock):
        seen = len(ada.learner.messages())
        await ada.learner.send(f"/exam {EXAM_ID}", "Welcome back: ⏱ 0:0")
        panel = await ada.panel("Question 1 of 4")
        assert paper_of(settings.db_path, ADA.id) == paper and "Your answer:" in panel.text
        result = await api.wait_for_bot_message(ADA.id, "— time is up", after=seen, timeout=15)
        assert "Score: <b>1 / 4</b>" in result.html
        assert "Time taken: 5:00 of 5:00" in result.text


async def test_an_exam_whose_limit_passed_while_the_bot_was_down_ends_at_start(
    api: FakeBotApi, tmp_path: Path
) -> None:
    settings = bank_settings(api, tmp_path, {"mini": EXAM_BANK})
    clock = Clock()
    bo = examinee(api, BO)
    async with running_bot(settings, clock):
        panel = await bo.start()
        await bo.choose(panel, RIGHT[paper_of(settings.db_path, BO.id)[0]])
        await bo.panel("Your answer:")
    clock.offset = 60 * 60  # down for an hour: the five minutes ran out long ago
    seen = len(bo.learner.messages())
    async with running_bot(settings, clock):
        result = await api.wait_for_bot_message(BO.id, "— time is up", after=seen)
        assert "Score: <b>1 / 4</b>" in result.html
        assert "Time taken: 5:00 of 5:00" in result.text  # ended when its time was up
    assert stored(settings.db_path, "SELECT ended_by FROM exam_attempts") == [("time",)]


# --- every path to an open exam's answers, closed -------------------------------------------


async def test_quiz_review_and_an_earlier_quiz_of_the_bank_are_refused_while_the_exam_runs(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    ada = examinee(api)
    earlier = await ada.learner.send(f"/quiz {EXAM_ID}", "Question 1 of 5")  # before the exam
    await ada.start()
    await ada.learner.send(f"/quiz {EXAM_ID}", "An exam of")
    await ada.learner.send("/review", "An exam of")
    toast = await ada.learner.tap(earlier, earlier.button_data()[0])
    assert (
        toast["text"]
        == "An exam of this quiz is open for you: its answers stay hidden until it ends."
    )
    assert not graded(api.messages[(ADA.id, earlier.message_id)].text)
    assert stored(settings.db_path, "SELECT COUNT(*) FROM answers") == [(0,)]


async def test_preview_shows_no_answers_during_an_exam(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    ada = examinee(api)
    await ada.start()
    preview = await ada.learner.send(f"/preview {EXAM_ID}", "👀")
    shown = "\n".join(m.text for m in ada.learner.messages() if m.message_id >= preview.message_id)
    assert "One plus one?" in shown and not graded(shown) and "💡" not in shown


async def test_forged_and_replayed_buttons_change_nothing(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    """A quiz's answer button naming the exam attempt; the exam's buttons pressed by someone
    else, on another message, for another question; the review before the end."""
    ada, bo = examinee(api, ADA), examinee(api, BO)
    panel = await ada.start()
    attempt = stored(settings.db_path, "SELECT id FROM attempts WHERE kind='exam'")[0][0]
    forged = callbacks.AnswerTap(attempt, 0, 0).encode()
    assert (await ada.learner.tap(panel, forged, forge=True))["text"] == (
        "This button is no longer active."
    )
    bo_panel = await bo.start()
    for data in panel.button_data():
        toast = await bo.learner.tap(bo_panel, data, forge=True)
        assert toast["text"] == "This is someone else's exam.", data
    first = panel.message_id
    panel = await ada.next(panel)
    await ada.learner.send(f"/exam {EXAM_ID}", "Welcome back")
    panel = await ada.panel("Question 2 of 4", moved_from=first)
    old = api.messages[(ADA.id, first)]
    for data in (
        callbacks.ExamChoose(attempt, 1, 0).encode(),  # on the old panel
        callbacks.ExamGo(attempt, 0).encode(),
        callbacks.ExamHandIn(attempt).encode(),
    ):
        toast = await ada.learner.tap(old, data, forge=True)
        assert toast["text"] == "This button is no longer active.", data
    toast = await ada.learner.tap(panel, callbacks.ExamChoose(attempt, 0, 0).encode(), forge=True)
    assert toast["text"] == "This button is no longer active."  # not the question shown
    toast = await ada.learner.tap(panel, callbacks.ExamReview(attempt, 1).encode(), forge=True)
    assert toast["text"] == "Hand the exam in first: its answers are shown after."
    assert stored(settings.db_path, "SELECT COUNT(*) FROM exam_responses") == [(0,)]
    assert not graded(api.messages[(ADA.id, panel.message_id)].text)


async def test_a_typed_answer_is_a_reply_kept_until_the_end(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    ada = examinee(api)
    panel = await ada.start()
    while item_of(panel) != "w1":
        panel = await ada.next(panel)
    seen = len(ada.learner.messages())
    api.send_text(ADA, "1,000")  # not an answer to a typed question? it is text: taken
    await api.wait_for_bot_message(ADA.id, "Saved", after=seen)
    panel = await ada.panel("Your answer: 1,000")
    panel = await ada.reply("cold")
    assert "Your answer: cold" in panel.text and not graded(panel.text)
    assert stored(settings.db_path, "SELECT reply FROM exam_responses") == [("cold",)]


async def test_the_seed_quiz_is_an_exam_with_the_defaults(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    ada = examinee(api)
    panel = await ada.start("model-pipeline-parallelism")
    assert "Question 1 of 8 · ⏱" in panel.text
    intro = next(m for m in ada.learner.messages() if "📝" in m.text)
    assert "8 questions · ⏱ 8:00 for the whole exam" in intro.text
    assert "Negative marking" not in intro.text  # no penalty without the bank's exam block


async def test_the_drill_bank_every_type_and_its_pictures_is_taken_as_an_exam(
    api: FakeBotApi, tmp_path: Path
) -> None:
    drill = load_bank_file(DRILL_FOLDER / "parallelism-drill.yaml", "en").quiz
    assert drill is not None
    settings = make_settings(api, tmp_path / "quiz.sqlite3")
    async with running_bot(settings):
        ada = examinee(api)
        panel = await ada.start("parallelism-drill")
        n = len(drill)
        photos = 0
        for number in range(1, n + 1):
            photos += bool(panel.photo)
            panel = await answer_right(ada, drill, panel)
            if number < n:
                panel = await ada.next(panel)
        assert photos == 2  # the two questions with a picture came as photos
        result = await ada.hand_in(panel)
        assert f"Score: <b>{n} / {n}</b> (100 %)" in result.html


async def test_a_review_of_what_was_missed_in_a_group_is_refused_while_the_exam_runs(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    """Practice of the bank: Bo missed a question of a group quiz of it, starts his exam,
    then presses the group's "Review what you missed": its answers are refused."""
    room = Room(api, api.group(GROUP_ID, "study", admins={TEACHER.id}))
    room.chat.members = {BO.id}
    first = await room.say(TEACHER, f"/groupquiz {EXAM_ID} 60", "Question 1 of")
    assert (await room.tap(BO, first, 2)).startswith("❌")  # no first option is wrong here
    while "final results" not in (final := await room.say(TEACHER, "/skip", "")).text:
        pass
    bo = examinee(api, BO)
    await bo.start()
    seen = len(bo.learner.messages())
    api.press_link(BO, final)
    await api.wait_for_bot_message(BO.id, "you missed", after=seen)
    asked = await api.wait_for(
        lambda: next((m for m in bo.learner.messages()[seen:] if "Practice 1 of" in m.text), None)
    )
    toast = await bo.learner.tap(asked, asked.button_data()[0])
    assert (
        toast["text"]
        == "An exam of this quiz is open for you: its answers stay hidden until it ends."
    )
    assert not graded(api.messages[(BO.id, asked.message_id)].text)
    assert stored(settings.db_path, "SELECT COUNT(*) FROM answers WHERE user_id=?", BO.id) == [(0,)]
