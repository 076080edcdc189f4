"""The toast process (bot/serving/toaster.py), end to end: the real Application with
`QUIZ_TOAST_PROCESS=on` against the stand-in. Group taps are toasted by the child process,
after their answers are committed; when the child dies the bot toasts them itself; at
shutdown every toast handed over reaches Telegram.

Which process made a call is told by the caller's port (`Call.port`) against the TCP
connections each process holds (`tcp_ports`)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.config import Settings
from bot.core.context import SERVICES_KEY, Services
from bot.sandbox import FakeBotApi, FakeUser, Message
from bot.serving import toaster as toaster_module
from bot.serving.toaster import Toaster, read_toast, toast_line
from tests.support.harness import running_bot
from tests.support.process import tcp_ports
from tests.support.room import ADA, GROUP_ID, Room, group_answers

RECORDED = ("✅", "❌")  # a right or a wrong answer, taken


@pytest.fixture
def toasting(settings: Settings) -> Settings:
    return replace(settings, toast_process="on")


def _toaster(application: object) -> Toaster:
    services: Services = application.bot_data[SERVICES_KEY]  # type: ignore[attr-defined]
    assert isinstance(services.toaster, Toaster)
    return services.toaster


async def _first_question(api: FakeBotApi) -> Message:
    """A quiz started by the group's admin (the bot running): its first question."""
    room = Room(api, api.group(GROUP_ID, "crowd", admins={ADA.id}))
    return await room.say(ADA, "/groupquiz tiny 600", "Question 1 of 3")


def _first_answers(settings: Settings) -> list[tuple[int, int, int, int]]:
    """The stored answers to the quiz's first question: (position, user id, ...)."""
    return [row for row in group_answers(Path(settings.db_path)) if row[0] == 0]


def _members(first: int, count: int) -> list[FakeUser]:
    return [FakeUser(first + n, f"member{first + n}") for n in range(count)]


def _tap_all(api: FakeBotApi, question: Message, members: list[FakeUser]) -> list[str]:
    options = question.button_data()[:-1]
    return [api.tap(m, question, options[n % len(options)]) for n, m in enumerate(members)]


def _toast_ports(api: FakeBotApi, queries: list[str]) -> set[int | None]:
    wanted = set(queries)
    return {
        call.port
        for call in api.calls_to("answerCallbackQuery")
        if call.params.get("callback_query_id") in wanted
    }


async def test_group_taps_are_toasted_by_the_toast_process(
    api: FakeBotApi, toasting: Settings
) -> None:
    async with running_bot(toasting) as application:
        toaster = _toaster(application)
        question = await _first_question(api)
        taps = _tap_all(api, question, _members(10_000, 60))
        await api.wait_for(lambda: all(q in api.callback_answers for q in taps), 30)
        child, bot = tcp_ports(toaster.pid), tcp_ports(os.getpid())
        ports = _toast_ports(api, taps)
        assert toaster.running
    assert ports and ports <= child and not ports & bot  # every toast came from the child
    toasts = [str(api.callback_answers[q]["text"]) for q in taps]
    assert all(text.startswith(RECORDED) for text in toasts)
    stored = _first_answers(toasting)
    assert len(stored) == len(toasts) == 60  # every toast is a stored answer, and every answer


async def test_a_killed_toast_process_loses_no_toast_and_is_restarted(
    api: FakeBotApi, toasting: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGKILL in the middle of a burst, the child's toasts held by Telegram and lost with it:
    the bot answers them itself, and the taps that come while the child is down; a new child
    is started and toasts again; one line says the death."""
    caplog.set_level(logging.INFO, logger="bot.serving.toaster")
    async with running_bot(toasting) as application:
        toaster = _toaster(application)
        killed = toaster.pid
        question = await _first_question(api)
        # the child's toasts hang at Telegram, and are never carried out...
        api.delay("answerCallbackQuery", 2.0, times=40, lost=True)
        first = _tap_all(api, question, _members(10_000, 40))
        await api.wait_for(lambda: api.delayed.count("answerCallbackQuery") == 40)
        os.kill(killed, signal.SIGKILL)  # ...and it is killed in the middle of the burst
        # taps while it is down: answered by the bot itself
        down = _tap_all(api, question, _members(20_000, 20))
        await api.wait_for(lambda: all(q in api.callback_answers for q in first + down), 30)
        # a new child runs, and toasts the taps after it started
        await api.wait_for(lambda: toaster.running and toaster.pid != killed, 30)
        restarted = toaster.pid
        later = _tap_all(api, question, _members(30_000, 20))
        await api.wait_for(lambda: all(q in api.callback_answers for q in later), 30)
        child = tcp_ports(restarted)
        assert _toast_ports(api, later) <= child
    every = first + down + later
    assert all(str(api.callback_answers[q]["text"]).startswith(RECORDED) for q in every)
    stored = {row[1] for row in _first_answers(toasting)}
    members = _members(10_000, 40) + _members(20_000, 20) + _members(30_000, 20)
    assert stored == {int(m.id) for m in members}
    warnings = [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING and r.name == "bot.serving.toaster"
    ]
    assert len(warnings) == 1 and f"toast process {killed} stopped" in warnings[0], warnings


async def test_a_toast_process_that_does_not_start_again_is_retried_ever_later(
    api: FakeBotApi,
    toasting: Settings,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a death, starts that fail are retried with a wait that doubles, one line each;
    meanwhile the bot toasts itself; once a start succeeds the child toasts again."""
    caplog.set_level(logging.INFO, logger="bot.serving.toaster")
    monkeypatch.setattr(toaster_module, "RESTART_SECONDS", 0.05)
    async with running_bot(toasting) as application:
        toaster = _toaster(application)
        killed = toaster.pid
        question = await _first_question(api)
        monkeypatch.setattr(toaster_module, "READY_SECONDS", 0.0)  # no child is ready in time
        os.kill(killed, signal.SIGKILL)

        def retries() -> list[str]:
            return [r.getMessage() for r in caplog.records if "start again" in r.getMessage()]

        await api.wait_for(lambda: len(retries()) >= 3, 30)
        assert [line.rsplit(" ", 2)[-2] for line in retries()[:3]] == ["0.1", "0.2", "0.4"]
        down = _tap_all(api, question, _members(10_000, 10))
        await api.wait_for(lambda: all(q in api.callback_answers for q in down), 30)
        assert _toast_ports(api, down) <= tcp_ports(os.getpid())
        monkeypatch.setattr(toaster_module, "READY_SECONDS", 30.0)
        await api.wait_for(lambda: toaster.running and toaster.pid != killed, 30)
        later = _tap_all(api, question, _members(20_000, 10))
        await api.wait_for(lambda: all(q in api.callback_answers for q in later), 30)
        assert _toast_ports(api, later) <= tcp_ports(toaster.pid)
    deaths = [r.getMessage() for r in caplog.records if "stopped (exit code" in r.getMessage()]
    assert len(deaths) == 1, deaths


async def test_shutdown_sends_every_toast_the_toast_process_holds(
    api: FakeBotApi, toasting: Settings
) -> None:
    async with running_bot(toasting) as application:
        toaster = _toaster(application)
        question = await _first_question(api)
        api.delay("answerCallbackQuery", 1.0, times=50)  # Telegram is slow to take them
        taps = _tap_all(api, question, _members(10_000, 50))
        await api.wait_for(lambda: "answerCallbackQuery" in api.delayed)
        outstanding = [q for q in taps if q not in api.callback_answers]
    assert outstanding  # the bot stopped while toasts were in the pipe or on their way
    assert all(q in api.callback_answers for q in taps)  # every one reached Telegram
    assert toaster.pid and not toaster.running
    assert await asyncio.wait_for(toaster.exited(), 1) == 0  # it finished by itself
    stored = _first_answers(toasting)
    assert len(stored) == 50


async def test_a_toast_process_that_cannot_start_leaves_toasts_to_the_bot(
    api: FakeBotApi,
    toasting: Settings,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(toaster_module, "READY_SECONDS", 0.0)  # it is never ready in time
    async with running_bot(toasting) as application:
        services: Services = application.bot_data[SERVICES_KEY]
        assert services.toaster is None
        question = await _first_question(api)
        taps = _tap_all(api, question, _members(10_000, 10))
        await api.wait_for(lambda: all(q in api.callback_answers for q in taps), 30)
    assert all(str(api.callback_answers[q]["text"]).startswith(RECORDED) for q in taps)
    assert any(
        r.levelno == logging.WARNING and "toast process did not start" in r.getMessage()
        for r in caplog.records
    )


async def test_the_toast_process_reads_the_settings_the_bot_read(
    api: FakeBotApi,
    toasting: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a .env beside the bot with a value its environment overrides: the bot starts, and so
    # must its child, which finds the same .env in the same folder
    (tmp_path / ".env").write_text("QUIZ_HEALTH_PORT=not-a-port\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("QUIZ_HEALTH_PORT", "18080")  # read, never opened by the child
    toaster = await Toaster.start(toasting, _never)
    assert toaster is not None
    await toaster.stop()
    assert await toaster.exited() == 0


async def test_a_429_on_a_toast_in_the_toast_process_is_not_waited_out(
    api: FakeBotApi, toasting: Settings, capfd: pytest.CaptureFixture[str]
) -> None:
    """As in the bot (`transport.RateLimiter`): a toast refused with a long 429 is lost in one
    line, not waited for (it would be too old to answer); the child does not hang on it."""
    async with running_bot(toasting) as application:
        toaster = _toaster(application)
        question = await _first_question(api)
        api.fail("answerCallbackQuery", 429, "Too Many Requests: retry after 30", 30, times=5)
        taps = _tap_all(api, question, _members(10_000, 5))
        await api.wait_for(lambda: len(api.calls_to("answerCallbackQuery")) >= 5)
    assert await asyncio.wait_for(toaster.exited(), 1) == 0  # it finished, it was not killed
    calls = [c.params.get("callback_query_id") for c in api.calls_to("answerCallbackQuery")]
    assert sorted(calls) == sorted(taps)  # each tried once
    lost = [line for line in capfd.readouterr().err.splitlines() if "asks to wait 30 s" in line]
    assert len(lost) == 5, lost
    stored = _first_answers(toasting)
    assert len(stored) == 5


async def test_a_stalled_toast_process_blocks_nothing_and_catches_up(
    api: FakeBotApi, toasting: Settings
) -> None:
    """The child stopped (SIGSTOP) while a thousand members tap: the pipe fills, the bot keeps
    what it does not take and goes on storing answers; the child, going on, sends them all."""
    async with running_bot(toasting) as application:
        toaster = _toaster(application)
        question = await _first_question(api)
        os.kill(toaster.pid, signal.SIGSTOP)
        try:
            taps = _tap_all(api, question, _members(10_000, 1000))
            path = Path(toasting.db_path)
            await api.wait_for(
                lambda: len([r for r in group_answers(path) if r[0] == 0]) == 1000, 60
            )
            # what the pipe did not take (about 76 bytes a toast past its 64 KiB)
            kept = toaster._child.stdin.transport.get_write_buffer_size()  # type: ignore[attr-defined]
            assert not any(q in api.callback_answers for q in taps)
        finally:
            os.kill(toaster.pid, signal.SIGCONT)
        await api.wait_for(lambda: all(q in api.callback_answers for q in taps), 60)
        assert toaster.running
    assert kept > 0  # more than the pipe takes was handed over


async def test_toasts_too_old_for_telegram_are_one_line_each_in_the_toast_process(
    api: FakeBotApi, toasting: Settings, capfd: pytest.CaptureFixture[str]
) -> None:
    async with running_bot(toasting) as application:
        toaster = _toaster(application)
        question = await _first_question(api)
        api.strictness = replace(api.strictness, callback_query_max_age=0.0)  # all too old
        taps = _tap_all(api, question, _members(10_000, 5))
        await api.wait_for(lambda: len(api.calls_to("answerCallbackQuery")) >= 5)
        assert toaster.running
    assert await asyncio.wait_for(toaster.exited(), 1) == 0
    err = capfd.readouterr().err
    late = [line for line in err.splitlines() if "answered too late" in line]
    assert len(late) == len(taps) == 5, err
    assert "Traceback" not in err and "toast failed" not in err


async def _never(query_id: str, text: str) -> None:
    raise AssertionError("no toast to send here")


ANY_CHARACTER = st.characters(exclude_categories=())  # lone surrogates too


@given(st.text(ANY_CHARACTER, max_size=40), st.text(ANY_CHARACTER, max_size=300))
def test_a_toast_is_one_line_whatever_its_text_holds(query_id: str, text: str) -> None:
    line = toast_line(query_id, text)
    assert b"\n" not in line and b"\r" not in line
    assert read_toast(line + b"\n") == (query_id, text)


@pytest.mark.parametrize("line", [b"", b"[1, 2]", b'["q"]', b'{"a": 1}', b"\xff", b'["q", "t"'])
def test_a_line_that_is_not_a_toast_is_refused(line: bytes) -> None:
    with pytest.raises(ValueError):
        read_toast(line)
