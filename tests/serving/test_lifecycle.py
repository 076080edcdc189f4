"""The run loop's shutdown: it runs to its end whatever a start interrupted left behind."""

from __future__ import annotations

import asyncio

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
