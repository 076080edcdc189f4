"""A Bot API that cannot be reached at start: one line, retried with backoff, then either
the bot comes up when the API appears, or exit code 2 after QUIZ_STARTUP_TIMEOUT."""

from __future__ import annotations

import signal
from pathlib import Path

from bot.sandbox import FakeBotApi, FakeUser, free_port
from tests.support.learner import Learner
from tests.support.process import started_bot, stop_if_running


def _retry_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if "Bot API" in line and "retry" in line]


async def test_an_unreachable_bot_api_is_one_line_then_exit_2_after_the_bound(
    tmp_path: Path,
) -> None:
    api = FakeBotApi()  # never started: nothing listens on its port
    env = api.bot_environment(tmp_path / "quiz.sqlite3")
    env.update(
        TELEGRAM_API_BASE_URL=f"http://127.0.0.1:{free_port()}/bot", QUIZ_STARTUP_TIMEOUT="2"
    )
    running = await started_bot(env, tmp_path)
    try:
        code, log = await running.finish(timeout=30)
    finally:
        await stop_if_running(running.process)
    assert code == 2, log
    assert "Traceback" not in log
    assert len(_retry_lines(log)) == 1, log
    last = log.strip().splitlines()[-1]
    assert last.startswith("quiz-tutor: ") and "Bot API" in last and "2 s" in last, last
    assert len(log.strip().splitlines()) <= 3, log


async def test_the_bot_comes_up_when_the_bot_api_appears(tmp_path: Path) -> None:
    port = free_port()
    api = FakeBotApi()
    env = api.bot_environment(tmp_path / "quiz.sqlite3")
    env.update(TELEGRAM_API_BASE_URL=f"http://127.0.0.1:{port}/bot", QUIZ_STARTUP_TIMEOUT="60")
    running = await started_bot(env, tmp_path)
    try:
        await running.read_until("retry")
        assert running.process.returncode is None
        await api.start(port)
        await running.read_until("ready")
        await Learner(api, FakeUser(2203, "Femi", "en")).send("/start", "Hello, \u2068Femi\u2069")
        running.process.send_signal(signal.SIGTERM)
        code, log = await running.finish()
    finally:
        await stop_if_running(running.process)
        await api.stop()
    assert code == 0, log
    assert "Traceback" not in log
    assert len(_retry_lines(log)) == 1, log


async def test_a_refused_webhook_is_one_line_and_exit_2(api: FakeBotApi, tmp_path: Path) -> None:
    env = api.bot_environment(tmp_path / "quiz.sqlite3")
    env.update(
        QUIZ_WEBHOOK_URL=f"ftp://127.0.0.1:{free_port()}/hook",
        QUIZ_WEBHOOK_SECRET="s3cret",
        QUIZ_WEBHOOK_PORT=str(free_port()),
    )
    running = await started_bot(env, tmp_path)
    code, log = await running.finish(timeout=60)
    assert code == 2, log
    assert "Traceback" not in log
    last = log.strip().splitlines()[-1]
    assert last.startswith("quiz-tutor: Telegram refused the webhook ftp://"), last
    assert "https url" in last.lower()
