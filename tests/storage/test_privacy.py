"""Deleting a learner's data (issue 11, item 16), in the storage and through
`python -m storage prune`: their own records go, their group and post answers stay for others'
totals under a placeholder, the audit log says what went and never whose."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import CardReview, Storage
from storage.group_store import AnswerStatus
from storage.held_answers import HOLD_LIMIT
from tests.support.db import group_answerers, rows
from tests.support.posting import answer_post, post

DAY = 86_400.0
NOW = 1_767_000_000.0
OLD = NOW - 40 * DAY  # inactive for 40 days
RECENT = NOW - 1 * DAY
ADA, BOLA, CHIKE = 1001, 1002, 1003  # Ada and Chike go quiet; Bola keeps learning
GROUP = -100_500


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "quiz.sqlite3"


async def _learner(storage: Storage, user_id: int, at: float, answers: int = 2) -> None:
    await storage.learners.touch_user(user_id, f"name-{user_id}", "en", at)
    await storage.learners.set_reminder(user_id, "08:00", at)
    attempt = await storage.learners.start_attempt(user_id, "arith", ("q1", "q2", "q3"), at)
    for n in range(answers):
        card = CardReview(True, 5.0)
        await storage.learners.record_answer(attempt, f"q{n + 1}", 0, True, at + n, card=card)


async def _group_answers(storage: Storage, at: float, people: dict[int, int]) -> int:
    """A group quiz at `at` in which each person answered its one question for `points`."""
    session = await storage.groups.start_session(
        chat_id=GROUP, chat_type="supergroup", quiz_id="arith", question_ids=("q1",),
        seconds=30, mode="buttons", language="en", started_by=ADA, now=at,
    )  # fmt: skip
    assert session is not None
    await storage.groups.question_asked(session.id, 0, "q1", 77, None, at, at + 30)
    for user_id, points in people.items():
        await storage.groups.record_answer(
            session_id=session.id, position=0, question_id="q1", user_id=user_id,
            name=f"name-{user_id}", chosen=0, correct=True, elapsed=1.0, points=points, now=at + 1,
        )  # fmt: skip
    await storage.groups.stop_session(session.id, at + 40)
    return session.id


@pytest.fixture
async def history(path: Path) -> AsyncIterator[Storage]:
    storage = await Storage.open(path)
    await _learner(storage, ADA, OLD)
    await _learner(storage, BOLA, OLD)
    attempt = await storage.learners.start_attempt(BOLA, "other", ("x1",), RECENT)
    await storage.learners.record_answer(attempt, "x1", 0, True, RECENT)
    await storage.learners.touch_user(CHIKE, "name-1003", "en", OLD)
    await _group_answers(storage, OLD, {ADA: 900, BOLA: 500, CHIKE: 700})
    posted = await post(storage, GROUP, "arith", "q2", 42, OLD)
    await answer_post(storage, posted, ADA, 1, False, OLD)
    await answer_post(storage, posted, BOLA, 0, True, OLD)
    yield storage
    await storage.close()


def _mentions(path: Path, user_id: int) -> dict[str, int]:
    """Rows anywhere that still carry the learner's id."""
    tables = ("users", "attempts", "answers", "cards", "review_log")
    found = {
        t: rows(path, f"SELECT COUNT(*) FROM {t} WHERE user_id=?", user_id)[0][0] for t in tables
    }
    for label, kind in (("group_answers", "timed"), ("post_answers", "post")):
        found[label] = rows(
            path,
            """SELECT COUNT(*) FROM group_answers a JOIN group_sessions s ON s.id = a.session_id
               WHERE a.user_id=? AND s.kind=?""",
            user_id,
            kind,
        )[0][0]
    found["group_sessions"] = rows(
        path, "SELECT COUNT(*) FROM group_sessions WHERE started_by=?", user_id
    )[0][0]
    return {table: n for table, n in found.items() if n}


async def test_forgetting_a_learner_removes_their_records_and_keeps_others_totals(
    history: Storage, path: Path
) -> None:
    storage = history
    board_before = await storage.groups.chat_scores(GROUP)
    assert _mentions(path, ADA)

    forgotten = await storage.privacy.forget_learner(ADA, NOW)

    assert _mentions(path, ADA) == {}
    assert await storage.learners.get_user(ADA) is None  # not served from the cache either
    assert forgotten.learners == 1
    # her group answer and her post answer were reviews of her cards too
    assert forgotten.deleted == {
        "group_picks": 0, "chat_admins": 0, "review_log": 4, "cards": 2, "answers": 2, "attempts": 1, "chat_requests": 0,
        "users": 1,
    }  # fmt: skip
    assert forgotten.anonymized == {"group_answers": 1, "post_answers": 1}
    # Bola and Chike are untouched
    assert _mentions(path, BOLA)["answers"] == 3
    assert _mentions(path, CHIKE) == {"users": 1, "group_answers": 1, "cards": 1, "review_log": 1}
    # the group's ranking keeps every point; Ada's row is a nameless placeholder
    board = await storage.groups.chat_scores(GROUP)
    assert sorted(r.points for r in board) == sorted(r.points for r in board_before)
    (placeholder,) = [r for r in board if r.points == 900]
    assert placeholder.user_id < 0 and placeholder.name == ""
    posted = await storage.groups.post(1)
    assert posted is not None and (await storage.groups.tally(posted.id, 0)).answers == 2
    # audited, without the person
    (admin_id, detail) = rows(
        path, "SELECT admin_id, detail FROM audit_log WHERE action='forget_learner'"
    )[0]
    assert admin_id == 0
    assert str(ADA) not in detail and "name-" not in detail
    assert json.loads(detail)["deleted"]["answers"] == 2


async def test_two_forgotten_learners_stay_two_rows_in_a_ranking(
    history: Storage, path: Path
) -> None:
    await history.privacy.forget_learner(ADA, NOW)
    await history.privacy.forget_learner(CHIKE, NOW)
    board = await history.groups.chat_scores(GROUP)
    placeholders = sorted((r.user_id, r.points) for r in board if r.user_id < 0)
    assert [points for _, points in placeholders] == [700, 900]
    assert len({user_id for user_id, _ in placeholders}) == 2
    assert [r.name for r in board if r.user_id == BOLA] == ["name-1002"]


async def test_a_learner_can_start_again_after_forgetting(history: Storage) -> None:
    await history.privacy.forget_learner(ADA, NOW)
    user = await history.learners.touch_user(ADA, "Ada", "en", NOW + 1)
    assert user.remind_at is None
    attempt = await history.learners.start_attempt(ADA, "arith", ("q1",), NOW + 2)
    outcome = await history.learners.record_answer(attempt, "q1", 0, True, NOW + 3)
    assert outcome.recorded and outcome.finished


async def test_forgetting_someone_unknown_changes_nothing_and_audits_nothing(
    history: Storage, path: Path
) -> None:
    forgotten = await history.privacy.forget_learner(999_999, NOW)
    assert forgotten.learners == 0
    assert rows(path, "SELECT COUNT(*) FROM audit_log WHERE action='forget_learner'") == [(0,)]


async def test_prune_forgets_exactly_the_inactive_and_a_dry_run_nothing(
    history: Storage, path: Path
) -> None:
    before = NOW - 30 * DAY
    await history.learners.mark_reminded(ADA, "2026-12-28", RECENT)  # the bot's doing, not hers
    dry = await history.privacy.prune_inactive(before, NOW, dry_run=True)
    assert dry.learners == 2  # Ada and Chike
    assert _mentions(path, ADA) and _mentions(path, CHIKE)
    assert rows(path, "SELECT COUNT(*) FROM audit_log WHERE action='prune_inactive'") == [(0,)]

    pruned = await history.privacy.prune_inactive(before, NOW)
    assert pruned == dry
    assert _mentions(path, ADA) == {} and _mentions(path, CHIKE) == {}
    assert _mentions(path, BOLA)["answers"] == 3
    (detail,) = rows(path, "SELECT detail FROM audit_log WHERE action='prune_inactive'")[0]
    assert str(ADA) not in detail and str(CHIKE) not in detail
    assert (await history.privacy.prune_inactive(before, NOW)).learners == 0


# --- python -m storage prune ---------------------------------------------------------------------


async def _storage(*args: str, cwd: Path) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "storage", *args, cwd=cwd,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_prune_on_the_command_line(path: Path, tmp_path: Path) -> None:
    import time

    now = time.time()
    storage = await Storage.open(path)
    await _learner(storage, ADA, now - 40 * DAY)
    await _learner(storage, BOLA, now - 2 * DAY)
    await storage.close()

    code, out, err = await _storage("prune", "--inactive-days", "30", "--dry-run", "--db",
                                    str(path), cwd=tmp_path)  # fmt: skip
    assert (code, err) == (0, ""), err
    assert out.startswith("would prune learners inactive for 30 days")
    assert "1 learner(s): deleted" in out and "answers 2" in out
    assert "nothing changed" in out
    assert _mentions(path, ADA)

    code, out, err = await _storage("prune", "--inactive-days", "30", "--db", str(path),
                                    cwd=tmp_path)  # fmt: skip
    assert (code, err) == (0, ""), err
    assert out.startswith("pruned learners inactive for 30 days")
    assert _mentions(path, ADA) == {}
    assert _mentions(path, BOLA)


async def test_prune_refuses_while_the_bot_holds_the_database(path: Path, tmp_path: Path) -> None:
    import os

    storage = await Storage.open(path)  # as the running bot does
    try:
        code, out, err = await _storage("prune", "--inactive-days", "30", "--db", str(path),
                                        cwd=tmp_path)  # fmt: skip
    finally:
        await storage.close()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert f"pid {os.getpid()}" in err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["prune", "--inactive-days", "0"], "--inactive-days must be 1 or more"),
        (["prune", "--inactive-days", "x"], "invalid int value"),
        (["prune"], "--inactive-days"),
        (["prune", "--inactive-days", "3", "--db", "nowhere.sqlite3"], "no database at"),
    ],
)
async def test_prune_refusals_are_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    code, out, err = await _storage(*args, cwd=tmp_path)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert says in err
    assert not (tmp_path / "nowhere.sqlite3").exists()


# --- answers to questions still open: held until the question closes ----------------------------


async def _open_question(storage: Storage, at: float, seconds: int = 30) -> int:
    """A running group quiz of two questions, its first asked at `at` and open `seconds`."""
    session = await storage.groups.start_session(
        chat_id=GROUP - 1, chat_type="supergroup", quiz_id="arith", question_ids=("q1", "q2"),
        seconds=seconds, mode="buttons", language="en", started_by=BOLA, now=at,
    )  # fmt: skip
    assert session is not None
    await storage.groups.question_asked(session.id, 0, "q1", 78, None, at, at + seconds)
    return session.id


async def _answer(
    storage: Storage, session_id: int, user_id: int, at: float, points: int = 600
) -> AnswerStatus:
    outcome = await storage.groups.record_answer(
        session_id=session_id, position=0, question_id="q1", user_id=user_id,
        name=f"name-{user_id}", chosen=0, correct=True, elapsed=1.0, points=points, now=at,
    )  # fmt: skip
    return outcome.status


async def test_an_answer_to_an_open_question_is_held_then_anonymized_by_the_reveal(
    history: Storage, path: Path
) -> None:
    storage = history
    session_id = await _open_question(storage, NOW)
    assert await _answer(storage, session_id, ADA, NOW + 1, points=800) is AnswerStatus.RECORDED
    assert await _answer(storage, session_id, BOLA, NOW + 2) is AnswerStatus.RECORDED

    forgotten = await storage.privacy.forget_learner(ADA, NOW + 3)
    assert forgotten.anonymized == {"group_answers": 1, "post_answers": 1}  # closed ones
    assert forgotten.held == {"group_answers": 1, "post_answers": 0}
    (detail,) = rows(path, "SELECT detail FROM audit_log WHERE action='forget_learner'")[0]
    assert json.loads(detail)["held"] == {"group_answers": 1, "post_answers": 0}
    assert group_answerers(path, session_id=session_id) == [(ADA, ""), (BOLA, "name-1002")]
    # one answer per question: a second one is refused, the count stays
    assert await _answer(storage, session_id, ADA, NOW + 4) is AnswerStatus.ALREADY
    assert (await storage.groups.tally(session_id, 0)).answers == 2
    # the ranking shows her already as one forgotten line with her points
    board = await storage.groups.session_scores(session_id)
    assert sorted((r.forgotten, r.points) for r in board) == [(False, 600), (True, 800)]

    step = await storage.groups.reveal(session_id, 0, NOW + 10)
    assert step.revealed and step.next_position == 1
    ((placeholder, name), bola) = group_answerers(path, session_id=session_id)
    assert placeholder < 0 and name == "" and bola[0] == BOLA
    assert _mentions(path, ADA) == {}
    # the same placeholder as her closed answers: one line in the chat's ranking
    (earlier,) = rows(path, "SELECT DISTINCT user_id FROM group_answers WHERE user_id < 0")
    assert earlier == (placeholder,)
    assert rows(path, "SELECT COUNT(*) FROM group_answers WHERE forgotten_as IS NOT NULL") == [(0,)]


async def test_stopping_a_session_anonymizes_its_held_answers(history: Storage, path: Path) -> None:
    session_id = await _open_question(history, NOW)
    await _answer(history, session_id, CHIKE, NOW + 1)
    await history.privacy.forget_learner(CHIKE, NOW + 2)
    assert group_answerers(path, session_id=session_id) == [(CHIKE, "")]
    assert await history.groups.stop_session(session_id, NOW + 3)
    ((placeholder, _),) = group_answerers(path, session_id=session_id)
    assert placeholder < 0 and _mentions(path, CHIKE) == {}


async def test_prune_holds_an_answer_to_an_open_post_until_the_post_is_revealed(
    history: Storage, path: Path
) -> None:
    storage = history
    at = NOW - 3 * DAY  # posted and answered three days ago, by learners quiet since
    posted = await post(storage, GROUP, "arith", "q3", 42, at)
    assert await answer_post(storage, posted, CHIKE, 0, True, at + 60) is AnswerStatus.RECORDED
    pruned = await storage.privacy.prune_inactive(NOW - 2 * DAY, NOW)
    assert pruned.learners == 2  # Ada (quiet for 40 days) and Chike
    assert pruned.held == {"group_answers": 0, "post_answers": 1}
    assert group_answerers(path, session_id=posted.id) == [(CHIKE, "")]
    assert await answer_post(storage, posted, CHIKE, 1, False, NOW) is AnswerStatus.ALREADY
    assert (await storage.groups.tally(posted.id, 0)).answers == 1
    # a prune ignores what is held: it is nobody's activity any more
    assert (await storage.privacy.prune_inactive(NOW, NOW + 1)).learners == 1  # Bola

    assert (await storage.groups.reveal(posted.id, 0, NOW + 5)).revealed
    ((placeholder, _),) = group_answerers(path, session_id=posted.id)
    assert placeholder < 0 and _mentions(path, CHIKE) == {}


async def test_a_hold_no_close_ends_is_ended_by_the_sweep_after_its_limit(
    history: Storage, path: Path
) -> None:
    storage = history
    session_id = await _open_question(storage, NOW, seconds=30)
    await _answer(storage, session_id, ADA, NOW + 1)
    posted = await post(storage, GROUP, "arith", "q3", 42, NOW)
    await answer_post(storage, posted, ADA, 0, True, NOW + 2)
    await storage.privacy.forget_learner(ADA, NOW + 3)
    assert _mentions(path, ADA) == {"group_answers": 1, "post_answers": 1}  # both held

    # a timed question: held until its deadline, when it takes no more answers
    assert await storage.privacy.release_held(NOW + 30) == 0
    assert await storage.privacy.release_held(NOW + 31) == 1
    assert _mentions(path, ADA) == {"post_answers": 1}
    # a post: held while it is younger than the limit (it never closes if nobody pushes again)
    assert await storage.privacy.release_held(NOW + HOLD_LIMIT) == 0
    assert await storage.privacy.release_held(NOW + HOLD_LIMIT + 1) == 1
    assert _mentions(path, ADA) == {}
    (placeholder,) = {row[0] for row in rows(path, "SELECT user_id FROM group_answers")} - {
        BOLA, CHIKE
    }  # fmt: skip
    assert placeholder < 0
    # and a forget of an answer to a question past its limit anonymizes it at once
    await answer_post(storage, posted, BOLA, 0, True, NOW + HOLD_LIMIT + 2)
    forgotten = await storage.privacy.forget_learner(BOLA, NOW + HOLD_LIMIT + 3)
    assert forgotten.held == {"group_answers": 0, "post_answers": 0}
    assert _mentions(path, BOLA) == {}


async def test_a_learner_forgotten_with_only_held_answers_keeps_a_placeholder_of_their_own(
    history: Storage, path: Path
) -> None:
    storage = history
    session_id = await _open_question(storage, NOW)
    newcomer = 1004
    await _answer(storage, session_id, newcomer, NOW + 1, points=900)
    await storage.privacy.forget_learner(newcomer, NOW + 2)  # held: its placeholder unused yet
    await storage.privacy.forget_learner(CHIKE, NOW + 3)  # anonymized at once
    await storage.groups.stop_session(session_id, NOW + 4)
    board = await storage.groups.chat_scores(GROUP - 1)
    assert [(r.forgotten, r.points) for r in board] == [(True, 900)]
    ids = {r.user_id for r in board} | {
        r.user_id for r in await storage.groups.chat_scores(GROUP) if r.forgotten
    }
    assert len(ids) == 2  # the newcomer and Chike: two people, two placeholders


async def test_a_selection_and_a_question_awaiting_a_reply_go_with_the_learner(
    path: Path,
) -> None:
    storage = await Storage.open(path)
    try:
        await storage.learners.touch_user(ADA, "Ada", "en", NOW)
        attempt = await storage.learners.start_attempt(ADA, "types", ("m", "n"), NOW)
        assert await storage.learners.toggle_pick(attempt.id, "m", 2, NOW) == {2}
        assert await storage.learners.toggle_pick(attempt.id, "m", 0, NOW) == {0, 2}
        await storage.learners.await_reply(ADA, attempt.id, 1, 55, NOW)
        await storage.learners.record_answer(attempt, "n", -1, False, NOW, reply="fourteen")
        await storage.privacy.forget_learner(ADA, NOW)
    finally:
        await storage.close()
    for table in ("picks", "awaited_replies", "answers", "attempts"):
        assert rows(path, f"SELECT COUNT(*) FROM {table}") == [(0,)], table
