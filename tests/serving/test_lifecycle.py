"""The run loop's shutdown: it runs to its end whatever a start interrupted left behind."""

from __future__ import annotations

import asyncio
import logging

import pytest
from telegram.ext import Application

from bot.sandbox.server import FakeBotApi
from bot.serving import lifecycle


def test_a_start_step_interrupted_by_the_stop_signal_does_not_cut_the_shutdown_short() -> None:
    """A stop signal that arrives while a start step runs (`run_until_complete`) leaves that
    step's task running with a callback that stops the loop when it ends; ending during the
    shutdown, it stopped the shutdown's own `run_until_complete`, and the bot exited with a
    traceback and code 1 before flushing (seen when SIGTERM came right after "ready")."""
    loop = asyncio.new_event_loop()
    try:
        interrupted = loop.create_future()
        interrupted.add_done_callback(lambda _: loop.stop())  # as run_until_complete leaves it
        flushed: list[str] = []

        async def shut_down() -> str:
            interrupted.set_result(None)  # the start step ends now, during the shutdown
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            flushed.append("answers")
            return "stopped"

        assert lifecycle.run_to_end(loop, shut_down()) == "stopped"
        assert flushed == ["answers"]
    finally:
        loop.close()


def test_an_error_of_the_shutdown_itself_is_raised() -> None:
    loop = asyncio.new_event_loop()
    try:

        async def failing() -> None:
            raise RuntimeError("the database is gone")

        try:
            lifecycle.run_to_end(loop, failing())
        except RuntimeError as error:
            assert str(error) == "the database is gone"
        else:
            raise AssertionError("the shutdown's error was swallowed")
    finally:
        loop.close()


async def test_a_job_due_once_the_shutdown_has_begun_does_not_start(
    api: FakeBotApi, caplog: pytest.LogCaptureFixture
) -> None:
    """Jobs due at start (the teachers' menus) fired while a refused webhook stopped the bot:
    PTB waits for the jobs running when its stop begins, but one that started meanwhile was
    cancelled mid-run by the scheduler, which logged its traceback after the one line the
    bot promises. Once the shutdown has begun, no job starts."""
    application = Application.builder().token(api.token).base_url(api.base_url).build()
    late_started = asyncio.Event()
    ran: list[str] = []

    async def late(context: object) -> None:
        late_started.set()
        await asyncio.sleep(0.05)
        ran.append("late ended")

    async def running(context: object) -> None:
        await api.wait_for(lambda: not application.running or None)  # the stop has begun
        assert application.job_queue is not None
        application.job_queue.run_once(late, when=0)
        try:
            await asyncio.wait_for(late_started.wait(), timeout=1)
        except TimeoutError:
            ran.append("late never started")

    await application.initialize()
    await application.start()
    assert application.job_queue is not None
    application.job_queue.run_once(running, when=0)
    await api.wait_for(lambda: application.job_queue.scheduler.get_jobs() == [] or None)
    await lifecycle.shut_down(application)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert ran == ["late never started"]
