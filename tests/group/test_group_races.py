"""Group sessions under concurrency: real flow and real SQLite, a scripted Bot API client.

Timers, redraws, reveals and resumes of one session run concurrently in production; these
tests hold a Telegram call open at a chosen moment to make the dangerous interleaving happen.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from telegram import PollAnswer, User
from telegram.error import Forbidden

from bot.config import DEFAULT_CONTENT_DIR, Settings
from bot.core.callbacks import GroupAnswer
from bot.core.context import Services
from bot.group import answers
from bot.group import flow as group_flow
from content.catalog import Catalog
from content.group_rules import shown_state
from content.model import Quiz
from storage import Storage


async def until(condition: Any, timeout: float = 10.0) -> None:
    """Wait for a condition that other tasks make true (checked every 10 ms)."""
    async with asyncio.timeout(timeout):
        while not condition():  # noqa: ASYNC110 - "a task waits for a lock" sets no event
            await asyncio.sleep(0.01)


def blocked_on(services: Services, session_id: int) -> bool:
    """Some task waits for this session's lock."""
    return services.locks.sessions.waiting(session_id) > 0


class Jobs:
    def __init__(self) -> None:
        self.jobs: list[SimpleNamespace] = []

    def run_once(
        self, callback: Any, when: float, data: Any = None, name: str | None = None
    ) -> Any:
        job = SimpleNamespace(callback=callback, when=when, data=data, name=name, removed=False)
        job.schedule_removal = lambda job=job: setattr(job, "removed", True)
        self.jobs.append(job)
        return job

    def get_jobs_by_name(self, name: str) -> list[SimpleNamespace]:
        return [job for job in self.jobs if job.name == name and not job.removed]


class Client:
    """Records calls; a call can be held open until the test lets it go."""

    def __init__(self) -> None:
        self.ids = itertools.count(100)
        self.log: list[tuple[str, int, int, bool]] = []
        self.hold_edits_with_buttons: asyncio.Event | None = None
        self.hold_sends: asyncio.Event | None = None
        self.entered = asyncio.Event()
        self.held = 0
        self.kicked_from: set[int] = set()

    async def send_message(self, chat_id: int, text: str, reply_markup: Any = None) -> Any:
        if chat_id in self.kicked_from and reply_markup is not None:
            raise Forbidden("bot was kicked")
        if self.hold_sends is not None and reply_markup is not None:
            self.entered.set()
            self.held += 1
            await self.hold_sends.wait()
        message_id = next(self.ids)
        self.log.append(("send", chat_id, message_id, reply_markup is not None))
        return SimpleNamespace(message_id=message_id)

    async def edit_message_text(
        self, text: str, chat_id: int, message_id: int, reply_markup: Any = None
    ) -> None:
        if self.hold_edits_with_buttons is not None and reply_markup is not None:
            self.entered.set()
            await self.hold_edits_with_buttons.wait()
        self.log.append(("edit", chat_id, message_id, reply_markup is not None))

    async def edit_message_reply_markup(self, chat_id: int, message_id: int) -> None:
        self.log.append(("edit", chat_id, message_id, False))

    @property
    def username(self) -> str:
        return "quiz_tutor_bot"


@dataclass
class World:
    """The group flow's surroundings: real services and SQLite, a scripted client, jobs."""

    services: Services
    quiz: Quiz
    client: Client = field(default_factory=Client)
    jobs: Jobs = field(default_factory=Jobs)

    async def start(self, chat_id: int = -1) -> Any:
        """A 30-second button quiz of the seed bank in the group `chat_id`."""
        return await group_flow.start(
            self.client, self.services, self.jobs, chat_id=chat_id, chat_type="group",  # type: ignore[arg-type]
            quiz=self.quiz, seconds=30, mode="buttons", language="en", started_by=1,
        )  # fmt: skip


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    settings = Settings(
        token="1:x", db_path=tmp_path / "db.sqlite3", content_dir=DEFAULT_CONTENT_DIR
    )
    storage = await Storage.open(settings.db_path)
    catalog = Catalog.from_folder(settings.content_dir, "en")
    yield World(Services(settings, storage, catalog), next(iter(catalog)))
    await storage.close()


async def test_a_live_count_redraw_never_lands_after_the_reveal(world: World) -> None:
    services, quiz, client, jobs = world.services, world.quiz, world.client, world.jobs
    session = await world.start()
    asked = await services.storage.groups.asked(session.id, 0)
    await services.storage.groups.record_answer(
        session_id=session.id, position=0, question_id=quiz.questions[0].id, user_id=7,
        name="x", chosen=0, correct=True, elapsed=1.0, points=900, now=services.clock(),
    )  # fmt: skip
    client.hold_edits_with_buttons = asyncio.Event()
    redraw = asyncio.create_task(group_flow.refresh_count(client, services, jobs, session.id, 0))  # type: ignore[arg-type]
    await client.entered.wait()  # the redraw is on its way (say, waiting in the rate limiter)
    reveal = asyncio.create_task(group_flow.reveal(client, services, jobs, session.id, 0))  # type: ignore[arg-type]
    await until(lambda: reveal.done() or blocked_on(services, session.id))
    client.hold_edits_with_buttons.set()
    await asyncio.gather(redraw, reveal)
    edits = [with_buttons for kind, _, message, with_buttons in client.log
             if kind == "edit" and message == asked.message_id]  # fmt: skip
    assert edits == [True, False]  # the count, then the reveal: the reveal stays


async def test_resume_during_a_post_does_not_post_the_question_twice(world: World) -> None:
    services, client, jobs = world.services, world.client, world.jobs
    session = await world.start()
    client.hold_sends = asyncio.Event()
    reveal = asyncio.create_task(group_flow.reveal(client, services, jobs, session.id, 0))  # type: ignore[arg-type]
    await client.entered.wait()  # question 2 is being posted
    resume = asyncio.create_task(group_flow.resume(client, services, jobs))  # type: ignore[arg-type]
    await until(lambda: resume.done() or client.held >= 2 or blocked_on(services, session.id))
    client.hold_sends.set()
    await asyncio.gather(reveal, resume)
    posts = [message for kind, chat, message, with_buttons in client.log
             if kind == "send" and with_buttons]  # fmt: skip
    assert len(posts) == 2  # question 1, then question 2 once


async def test_a_chat_the_bot_was_removed_from_ends_its_session_without_retries(
    world: World,
) -> None:
    world.client.kicked_from = {-2, -3}
    for chat in (-2, -3):
        await world.start(chat)
    assert [job for job in world.jobs.jobs if (job.name or "").startswith("group-retry")] == []
    assert await world.services.storage.groups.running_sessions() == []


@pytest.mark.parametrize("topic", [None, 7], ids=["general", "a-forum-topic"])
async def test_a_vote_on_a_poll_still_being_recorded_waits_for_it_in_any_topic(
    world: World, topic: int | None
) -> None:
    """A vote that arrives between Telegram posting a quiz poll and the bot recording it waits
    for the post (which holds its session's lock), in whichever topic its session runs."""
    services, quiz = world.services, world.quiz
    groups, chat_id = services.storage.groups, -100
    question = quiz.questions[0]
    session = await groups.start_session(
        chat_id=chat_id, chat_type="supergroup", quiz_id=quiz.id,
        question_ids=(question.id,), seconds=30, mode="poll", language="en", started_by=1,
        now=services.clock(), thread_id=topic,
    )  # fmt: skip
    assert session is not None
    voter = User(5, "Bo", is_bot=False)
    async with group_flow.session_lock(services, session.id):  # the poll is being posted
        services.poll_chats["poll-1"] = chat_id
        vote = asyncio.create_task(
            answers.take_vote(
                services,
                PollAnswer("poll-1", (0,), user=voter, option_persistent_ids=("0",)),
                services.clock(),
            )
        )
        await until(lambda: vote.done() or blocked_on(services, session.id))
        now = services.clock()
        await groups.question_asked(session.id, 0, question.id, 77, "poll-1", now, now + 30)
    await vote
    counts = await groups.answer_counts(session.id, 0)
    assert sum(counts.values()) == 1  # the vote counted


async def test_what_a_session_keeps_in_memory_goes_with_its_questions(world: World) -> None:
    """The count each question shows is kept while it is open, and the session's lock while
    someone uses it: a bot running for months keeps none of a quiz that ended."""
    services, client, jobs = world.services, world.client, world.jobs
    session = await world.start()
    shown = services.shown_counts
    posted = shown_state(0, session.seconds)  # no answers yet, all its time left
    assert shown.shows((session.id, 0), posted) and len(shown) == 1
    await group_flow.reveal(client, services, jobs, session.id, 0)  # type: ignore[arg-type]
    assert not shown.shows((session.id, 0), posted)
    assert shown.shows((session.id, 1), posted) and len(shown) == 1
    running = await services.storage.groups.get_session(session.id)
    assert running is not None
    assert await group_flow.stop(client, services, jobs, running)  # type: ignore[arg-type]
    assert len(shown) == 0
    assert len(services.locks.sessions) == 0


class Toasts:
    """The toast process, as the flow sees it: every toast handed over."""

    def __init__(self) -> None:
        self.sent: dict[str, str] = {}

    def send(self, query_id: str, text: str) -> bool:
        self.sent[query_id] = text
        return True


async def test_a_tap_as_soon_as_a_question_is_posted_waits_for_it_to_be_recorded(
    world: World,
) -> None:
    """A member can tap a question the moment Telegram shows it, before the bot has recorded
    it (its write waits for the file, here held by another connection). The tap is not
    refused as a stale button: it waits for the record (the post holds the session's lock)
    and is taken. Reads see only what is committed, so the record is not seen before that."""
    toasts = Toasts()
    services = replace(world.services, toaster=toasts)
    client, jobs = world.client, world.jobs
    session = await world.start()
    posted = len(client.log)
    other = sqlite3.connect(services.settings.db_path, isolation_level=None)
    client.hold_sends = asyncio.Event()
    try:
        reveal = asyncio.create_task(
            group_flow.reveal(client, services, jobs, session.id, 0)  # type: ignore[arg-type]
        )
        await client.entered.wait()  # question 2 is being sent, question 1's reveal written
        other.execute("BEGIN IMMEDIATE")  # the record of question 2 waits (busy_timeout)
        client.hold_sends.set()
        await until(
            lambda: any(kind == "send" and keys for kind, _, _, keys in client.log[posted:])
        )
        question_2 = next(m for kind, _, m, keys in client.log[posted:] if kind == "send" and keys)
        query: Any = SimpleNamespace(
            id="tap-1",
            message=SimpleNamespace(chat=SimpleNamespace(id=-1), message_id=question_2),
            from_user=User(7, "Bo", is_bot=False),
        )
        tap = asyncio.create_task(
            answers.take_tap(
                services, jobs, query, GroupAnswer(session.id, 1, 0),  # type: ignore[arg-type]
                services.default_locale(), services.clock(),
            )
        )  # fmt: skip
        await until(lambda: tap.done() or blocked_on(services, session.id))
        assert not tap.done()
    finally:
        other.execute("ROLLBACK")
        other.close()
    await asyncio.gather(reveal, tap)
    assert "no longer active" not in toasts.sent["tap-1"]
    counts = await services.storage.groups.answer_counts(session.id, 1)
    assert sum(counts.values()) == 1
