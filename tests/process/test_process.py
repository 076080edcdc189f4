"""`python -m bot` as operators run it: start, serve, stop on SIGTERM, survive kill -9."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

from bot.config import DEFAULT_CONTENT_DIR
from bot.sandbox import FakeBotApi, FakeUser
from content.loader import load_bank_file
from tests.support.learner import Learner
from tests.support.process import (
    QUIZ_ID,
    bot_process,
    children,
    started_bot,
    stop_if_running,
)
from tests.support.process import running as process_runs


async def test_missing_token_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "QUIZ_"))}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1, lines
    assert "TELEGRAM_BOT_TOKEN" in lines[0]
    assert out == b""


async def test_serves_then_stops_cleanly_on_sigterm(api: FakeBotApi, tmp_path: Path) -> None:
    db_path = tmp_path / "data" / "quiz.sqlite3"
    learner = Learner(api, FakeUser(2001, "Kemi", "en"))
    async with bot_process(api.bot_environment(db_path), tmp_path) as running:
        await learner.send("/start", "Hello, \u2068Kemi")
        running.process.send_signal(signal.SIGTERM)
        code, log = await running.finish()
    assert code == 0, log
    assert "Traceback" not in log
    assert api.token not in log
    assert api.token.split(":")[1] not in log
    assert "Quiz Tutor stopped" in log
    assert db_path.exists()


async def test_kill_9_loses_no_acknowledged_answer(api: FakeBotApi, tmp_path: Path) -> None:
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / f"{QUIZ_ID}.yaml", "en").quiz
    assert quiz is not None
    db_path = tmp_path / "quiz.sqlite3"
    env = api.bot_environment(db_path)
    learner = Learner(api, FakeUser(2002, "Lola", "en"))
    async with bot_process(env, tmp_path) as running:
        await learner.answer_right(quiz, 3)
        await running.kill_9()

    with sqlite3.connect(db_path) as db:
        stored = db.execute("SELECT question_id FROM answers ORDER BY id").fetchall()
    assert stored == [("mpp-1",), ("mpp-2",), ("mpp-3",)]

    async with bot_process(env, tmp_path) as running:
        resumed = await learner.send(f"/quiz {QUIZ_ID}", "Question 4 of 8")
        assert quiz.questions[3].text.get("en", "en") in resumed.text
        running.process.send_signal(signal.SIGTERM)
        code, log = await running.finish()
    assert code == 0, log


async def test_webhook_mode_checks_the_secret_and_serves(api: FakeBotApi, tmp_path: Path) -> None:
    import json
    import socket
    import urllib.error
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = api.bot_environment(tmp_path / "quiz.sqlite3")
    env.update(
        QUIZ_WEBHOOK_URL=f"http://127.0.0.1:{port}/telegram/hook",
        QUIZ_WEBHOOK_SECRET="s3cret-token",
        QUIZ_WEBHOOK_LISTEN="127.0.0.1",
        QUIZ_WEBHOOK_PORT=str(port),
        LOG_LEVEL="DEBUG",
    )
    user = FakeUser(2003, "Mide", "en")
    chat = api.private_chat(user)
    update = {
        "update_id": 1,
        "message": {
            "message_id": 1, "date": 0, "chat": chat.to_dict(), "from": user.to_dict(),
            "text": "/help", "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
        },
    }  # fmt: skip

    def post(secret: str | None) -> int:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/telegram/hook",
            data=json.dumps(update).encode(),
            headers={"Content-Type": "application/json"}
            | ({"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}),
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return error.code

    async with bot_process(env, tmp_path) as running:
        await running.read_until("webhook: listening on")
        assert api.webhook is not None
        assert api.webhook["url"] == f"http://127.0.0.1:{port}/telegram/hook"
        assert api.webhook["secret_token"] == "s3cret-token"
        assert await asyncio.to_thread(post, "wrong") == 403
        assert await asyncio.to_thread(post, None) == 403
        assert api.bot_messages(user.id) == []
        assert await asyncio.to_thread(post, "s3cret-token") == 200
        await api.wait_for_bot_message(user.id, "/progress")
        running.process.send_signal(signal.SIGTERM)
        code, log = await running.finish()
    assert code == 0, log
    assert "s3cret-token" not in log


async def test_rejected_token_is_one_line_exit_2_and_never_logged(
    api: FakeBotApi, tmp_path: Path
) -> None:
    env = api.bot_environment(tmp_path / "quiz.sqlite3")
    env["TELEGRAM_BOT_TOKEN"] = "999:WRONG-secret-value"
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 60)
    log = out.decode() + err.decode()
    assert process.returncode == 2, log
    assert "WRONG-secret-value" not in log
    assert "Traceback" not in log
    assert log.strip().splitlines()[-1] == (
        "quiz-tutor: Telegram rejected TELEGRAM_BOT_TOKEN; check it with @BotFather"
    )


async def test_a_database_that_cannot_be_opened_is_one_line_and_exit_2(
    api: FakeBotApi, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the database's folder should be")
    env = api.bot_environment(blocker / "quiz.sqlite3")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2, err.decode()
    last = err.decode().strip().splitlines()[-1]
    assert last.startswith("quiz-tutor: cannot use the database")
    assert "Traceback" not in err.decode()


async def test_the_toast_process_toasts_taps_and_stops_with_the_bot_on_ctrl_c(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """`QUIZ_TOAST_PROCESS=on`: a group's taps are toasted; Ctrl-C in a terminal signals the
    whole process group: the bot stops, the toast process with it, no traceback, no token."""
    admin = FakeUser(2101, "Ada", "en")
    group = api.group(-100777, "crowd", admins={admin.id})
    env = {**api.bot_environment(tmp_path / "quiz.sqlite3"), "QUIZ_TOAST_PROCESS": "on"}
    async with bot_process(env, tmp_path) as running:
        assert "toast process" in "".join(running.log)  # said before "ready"
        (toaster,) = children(running.process.pid)
        api.send_text(admin, f"/groupquiz {QUIZ_ID} 600", group)
        question = await api.wait_for(
            lambda: next(
                (
                    m
                    for m in api.bot_messages(group.id)
                    if any(":ga:" in d for d in m.button_data())
                ),
                None,
            )
        )
        options = [d for d in question.button_data() if ":ga:" in d]
        taps = [
            api.tap(FakeUser(30_000 + n, f"m{n}"), question, options[n % len(options)])
            for n in range(30)
        ]
        await api.wait_for(lambda: all(q in api.callback_answers for q in taps))
        for pid in (running.process.pid, toaster):  # as a terminal's Ctrl-C does
            os.kill(pid, signal.SIGINT)
        code, log = await running.finish()
    assert code == 0, log
    assert "Traceback" not in log
    assert api.token.split(":")[1] not in log
    assert "Quiz Tutor stopped" in log
    assert not process_runs(toaster)  # it ended with the bot


async def test_ctrl_c_while_the_toast_process_starts_leaves_nothing_behind(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """Ctrl-C while the bot waits for its toast process to be ready (Telegram slow to answer
    the child's getMe): the bot stops (it hung, its database left open), and the child with it
    (it outlived the bot, then wrote "ready" into a closed pipe: a traceback)."""
    env = {**api.bot_environment(tmp_path / "quiz.sqlite3"), "QUIZ_TOAST_PROCESS": "on"}
    running = await started_bot(env, tmp_path)
    try:
        await api.wait_for(lambda: api.calls_to("getMe"), 30)  # the bot's own
        api.delay("getMe", 2.0)  # the child's
        await api.wait_for(lambda: "getMe" in api.delayed, 30)
        (toaster,) = children(running.process.pid)
        for pid in (running.process.pid, toaster):  # as a terminal's Ctrl-C does
            os.kill(pid, signal.SIGINT)
        code, log = await running.finish()
        assert not process_runs(toaster)  # it did not outlive the bot
    finally:
        await stop_if_running(running.process)
    assert code == 0, log
    assert "Traceback" not in log
