"""Unit tests of storage/group_store.py (Storage.groups) against a real SQLite file."""

from __future__ import annotations

import asyncio

import pytest

from storage import Storage
from storage.group_store import AnswerStatus, GroupSession, RevealStep
from tests.support.posting import answer_post, post

CHAT = -1001
T0 = 1_700_000_000.0
IDS = ("q1", "q2")


async def start(storage: Storage, chat_id: int = CHAT) -> GroupSession:
    session = await storage.groups.start_session(
        chat_id=chat_id, chat_type="supergroup", quiz_id="arith", question_ids=IDS,
        seconds=20, mode="buttons", language="en", started_by=7, now=T0,
    )  # fmt: skip
    assert session is not None
    return session


async def answer(
    storage: Storage, session: GroupSession, user_id: int, chosen: int, now: float,
    position: int = 0,
) -> AnswerStatus:  # fmt: skip
    outcome = await storage.groups.record_answer(
        session_id=session.id, position=position, question_id=IDS[position], user_id=user_id,
        name=f"u{user_id}", chosen=chosen, correct=chosen == 0, elapsed=now - T0,
        points=1000 if chosen == 0 else 0, now=now,
    )  # fmt: skip
    return outcome.status


async def test_one_running_session_per_chat(storage: Storage) -> None:
    first = await start(storage)
    assert first.position == 0 and first.running and first.total == 2
    again = await storage.groups.start_session(
        chat_id=CHAT, chat_type="supergroup", quiz_id="other", question_ids=IDS,
        seconds=20, mode="buttons", language="en", started_by=8, now=T0,
    )  # fmt: skip
    assert again is None
    assert (await start(storage, chat_id=-2002)).id != first.id
    assert await storage.groups.stop_session(first.id, T0 + 1)
    assert not await storage.groups.stop_session(first.id, T0 + 2)
    assert (await start(storage)).id != first.id


async def test_first_answer_stands_and_late_or_revealed_answers_are_closed(
    storage: Storage,
) -> None:
    session = await start(storage)
    assert await answer(storage, session, 1, 0, T0 + 1) is AnswerStatus.CLOSED  # not asked yet
    await storage.groups.question_asked(session.id, 0, "q1", 10, None, T0, T0 + 20)
    assert await answer(storage, session, 1, 0, T0 + 1) is AnswerStatus.RECORDED
    outcome = await storage.groups.record_answer(
        session_id=session.id, position=0, question_id="q1", user_id=1, name="u1",
        chosen=1, correct=False, elapsed=2, points=0, now=T0 + 2,
    )  # fmt: skip
    assert (outcome.status, outcome.chosen, outcome.points) == (AnswerStatus.ALREADY, 0, 1000)
    assert await answer(storage, session, 2, 1, T0 + 21) is AnswerStatus.CLOSED  # too late
    assert await answer(storage, session, 3, 1, T0 + 5, position=1) is AnswerStatus.CLOSED
    assert await answer(storage, session, 4, 1, T0 + 6) is AnswerStatus.RECORDED
    assert await storage.groups.answer_counts(session.id, 0) == {0: 1, 1: 1}
    assert await storage.groups.reveal(session.id, 0, T0 + 7) == RevealStep(True, 1)
    assert await storage.groups.reveal(session.id, 0, T0 + 8) == RevealStep(False)
    assert await answer(storage, session, 5, 0, T0 + 8) is AnswerStatus.CLOSED


async def test_concurrent_taps_of_one_person_record_one_answer(storage: Storage) -> None:
    session = await start(storage)
    await storage.groups.question_asked(session.id, 0, "q1", 10, None, T0, T0 + 20)
    results = await asyncio.gather(*(answer(storage, session, 1, n % 2, T0 + 1) for n in range(6)))
    assert results.count(AnswerStatus.RECORDED) == 1
    assert await storage.groups.count_answers() == 1


async def test_the_last_reveal_finishes_the_session_and_scores_add_up(storage: Storage) -> None:
    session = await start(storage)
    await storage.groups.question_asked(session.id, 0, "q1", 10, "poll-1", T0, T0 + 20)
    await answer(storage, session, 1, 0, T0 + 2)
    await answer(storage, session, 2, 0, T0 + 1)
    await storage.groups.reveal(session.id, 0, T0 + 20)
    await storage.groups.question_asked(session.id, 1, "q2", 11, None, T0 + 20, T0 + 40)
    await answer(storage, session, 1, 0, T0 + 21, position=1)
    assert await storage.groups.reveal(session.id, 1, T0 + 40) == RevealStep(True, None)
    ended = await storage.groups.get_session(session.id)
    assert ended is not None and not ended.running and ended.outcome == "finished"
    assert await storage.groups.running_sessions() == []
    assert await storage.groups.latest_session(CHAT) == ended
    scores = {row.user_id: row for row in await storage.groups.session_scores(session.id)}
    assert scores[1].points == 2000 and scores[1].correct == 2 and scores[1].answered == 2
    assert scores[2].points == 1000 and scores[2].total_time == pytest.approx(1.0)
    asked = await storage.groups.asked_by_poll("poll-1")
    assert asked is not None and asked.position == 0 and asked.revealed_at == T0 + 20

    second = await start(storage)
    await storage.groups.question_asked(second.id, 0, "q1", 12, None, T0, T0 + 20)
    await answer(storage, second, 2, 0, T0 + 3)
    chat = {row.user_id: row.points for row in await storage.groups.chat_scores(CHAT)}
    assert chat == {1: 2000, 2: 2000}
    assert await storage.groups.latest_session(CHAT) == await storage.groups.get_session(second.id)


# --- posted questions: one-question sessions without a timer ---------------------------------

ADMIN = 42


async def test_posts_take_one_answer_per_member_until_revealed(storage: Storage) -> None:
    groups = storage.groups
    first = await post(storage, -100, "q", "q1", ADMIN, T0, message_id=None)
    assert first.posted and first.running and first.post_id == 1
    assert await groups.asked(first.id, 0) is None
    await groups.post_sent(first.id, "q1", 7, T0)
    asked = await groups.asked(first.id, 0)
    assert asked is not None and asked.message_id == 7 and asked.revealed_at is None
    assert await groups.start_post(
        chat_id=-100, chat_type="channel", quiz_id="q", question_id="q1", language="",
        posted_by=ADMIN, now=T0,
    ) is None  # fmt: skip
    assert await groups.post(1) == first
    dropped = await post(storage, -100, "q", "q2", ADMIN, T0, message_id=None)
    await groups.drop_unsent(dropped.id)
    assert await groups.posted_question_ids(-100, "q") == {"q1"}
    assert await answer_post(storage, first, 1, 0, True, T0) is AnswerStatus.RECORDED
    assert await answer_post(storage, first, 1, 1, False, T0) is AnswerStatus.ALREADY
    assert await answer_post(storage, first, 2, 1, False, T0 + 10**7) is AnswerStatus.RECORDED
    assert (await groups.tally(first.id, 0)).answers == 2
    assert [p.id for p in await groups.open_posts(-100)] == [first.id]
    assert await groups.reveal(first.id, 0, T0) == RevealStep(revealed=True, next_position=None)
    assert not (await groups.reveal(first.id, 0, T0)).revealed
    assert await answer_post(storage, first, 3, 0, True, T0) is AnswerStatus.CLOSED
    assert await groups.open_posts(-100) == []
    totals = await storage.content.quiz_totals()
    assert (totals["q"].learners, totals["q"].answers, totals["q"].correct) == (2, 2, 1)
    entries = await storage.audit.entries()
    assert [(e.action, e.admin_id, e.quiz_id) for e in entries] == [("push", ADMIN, "q")] * 2


async def test_a_post_whose_message_was_never_sent_closes_on_reveal(storage: Storage) -> None:
    unsent = await post(storage, -100, "q", "q1", None, T0, message_id=None)
    assert (await storage.groups.reveal(unsent.id, 0, T0 + 1)).revealed
    assert await storage.groups.open_posts(-100) == []
    assert await storage.groups.posted_question_ids(-100, "q") == {"q1"}  # never posted again


async def test_posts_and_a_timed_quiz_share_a_chat_without_blocking_each_other(
    storage: Storage,
) -> None:
    posted = await post(storage, CHAT, "arith", "q1", ADMIN, T0)
    session = await start(storage)  # an open post does not block /groupquiz
    also = await post(storage, CHAT, "arith", "q2", ADMIN, T0)  # nor a quiz a push
    assert (posted.post_id, also.post_id) == (1, 2)
    assert await storage.groups.running_session(CHAT) == session
    assert await storage.groups.running_sessions() == [session]
    await storage.groups.question_asked(session.id, 0, "q1", 77, None, T0, T0 + 20)
    assert await answer_post(storage, posted, 5, 0, True, T0 + 1) is AnswerStatus.RECORDED
    assert await answer(storage, session, 6, 0, T0 + 1) is AnswerStatus.RECORDED
    # posts score nothing and are on no leaderboard
    assert [row.user_id for row in await storage.groups.chat_scores(CHAT)] == [6]
    await storage.groups.stop_session(session.id, T0 + 2)
    assert await storage.groups.latest_session(CHAT) == await storage.groups.get_session(session.id)


async def test_post_numbers_continue_after_the_highest(storage: Storage) -> None:
    numbers = [(await post(storage, -100 - n, "q", "q1", ADMIN, T0)).post_id for n in range(3)]
    assert numbers == [1, 2, 3]
    session = await start(storage, chat_id=-7)
    assert session.post_id is None and not session.posted


async def test_answers_arriving_together_are_written_in_few_batches(storage: Storage) -> None:
    """Taps of 1,200 members at once (storage/group_batch.py): a handful of commits, each
    answer told its own fate, one row per member, a second tap of one member in the same
    burst told that the first stands."""
    session = await start(storage)
    await storage.groups.question_asked(session.id, 0, "q1", 10, None, T0, T0 + 20)
    commits = 0

    def trace(sql: str) -> None:
        nonlocal commits
        commits += sql.strip().upper() == "COMMIT"

    await storage.database.set_trace_callback(trace)
    members = range(1000, 2200)
    statuses = await asyncio.gather(
        *(answer(storage, session, user, user % 3, T0 + 1) for user in members),
        answer(storage, session, 1000, 2, T0 + 1),  # the same member again, same burst
        answer(storage, session, 5000, 0, T0 + 30),  # after the deadline
    )
    await storage.database.set_trace_callback(None)
    assert statuses[:-2] == [AnswerStatus.RECORDED] * len(members)
    assert statuses[-2:] == [AnswerStatus.ALREADY, AnswerStatus.CLOSED]
    assert commits <= 10  # 1,202 answers; one at a time would be 1,202 commits
    counts = await storage.groups.answer_counts(session.id, 0)
    assert sum(counts.values()) == len(members)
    assert counts == {n: sum(1 for user in members if user % 3 == n) for n in range(3)}


async def toggle(
    storage: Storage, session: GroupSession, user_id: int, option: int, now: float
) -> tuple[AnswerStatus, int]:
    outcome = await storage.groups.toggle_pick(
        session_id=session.id, position=0, question_id=IDS[0], user_id=user_id, option=option,
        now=now,
    )  # fmt: skip
    return outcome.status, outcome.options


async def test_picks_toggle_per_member_only_while_the_question_is_open(storage: Storage) -> None:
    session = await start(storage)
    assert await toggle(storage, session, 1, 0, T0 + 1) == (AnswerStatus.CLOSED, 0)  # not asked
    await storage.groups.question_asked(session.id, 0, "q1", 10, None, T0, T0 + 20)
    assert await toggle(storage, session, 1, 0, T0 + 1) == (AnswerStatus.RECORDED, 0b001)
    assert await toggle(storage, session, 1, 2, T0 + 2) == (AnswerStatus.RECORDED, 0b101)
    assert await toggle(storage, session, 2, 1, T0 + 2) == (AnswerStatus.RECORDED, 0b010)
    assert await toggle(storage, session, 1, 0, T0 + 3) == (AnswerStatus.RECORDED, 0b100)
    assert await storage.groups.picks(session.id, 0, 1) == 0b100
    assert await storage.groups.picks(session.id, 0, 3) == 0
    assert await toggle(storage, session, 1, 1, T0 + 21) == (AnswerStatus.CLOSED, 0)  # too late
    assert await answer(storage, session, 2, 0b010, T0 + 4) is AnswerStatus.RECORDED
    assert await toggle(storage, session, 2, 0, T0 + 5) == (AnswerStatus.ALREADY, 0)
    assert await storage.groups.picks(session.id, 0, 2) == 0b010  # the answer's, kept
    await storage.groups.reveal(session.id, 0, T0 + 6)
    assert await toggle(storage, session, 1, 1, T0 + 7) == (AnswerStatus.CLOSED, 0)
    assert await storage.groups.picks(session.id, 0, 1) == 0b100


async def test_many_members_toggling_at_once_each_get_their_own_selection(
    storage: Storage,
) -> None:
    session = await start(storage)
    await storage.groups.question_asked(session.id, 0, "q1", 10, None, T0, T0 + 20)
    members = range(100, 400)

    async def member(user_id: int) -> int:
        # each member's taps one after the other (as the update processor hands them over),
        # every member's side by side
        options = 0
        for option in (user_id % 4, (user_id + 1) % 4, user_id % 4, 3):
            _, options = await toggle(storage, session, user_id, option, T0 + 1)
        return options

    shown = await asyncio.gather(*(member(user_id) for user_id in members))
    expected = [(1 << (u + 1) % 4) ^ (1 << 3) for u in members]
    assert shown == expected
    assert [await storage.groups.picks(session.id, 0, u) for u in members] == expected
