"""The dashboard's grid, served: a group of N members over a quiz of Q questions.

    python -m bench.dashboard                      # 1,000 members x 50 questions, 20 requests
    python -m bench.dashboard --members 10000 --questions 50 --repeat 20

Runs the real bot (polling the embedded Bot API on 127.0.0.1) with a bank of Q questions, fills
one finished group quiz of that bank in which every member answered every question (written
with the bot's own schema), serves the dashboard on a free port, and asks for the grid as a
chat admin would (signed initData, the getChatMember check cached after the first request).
Prints the median and p95 time per request, end to end over HTTP, and the size of the answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp
from telegram import Update

from bot.app import build_application
from bot.config import Settings
from bot.sandbox import FakeBotApi
from bot.sandbox.web_app import sign_init_data
from bot.serving.dashboard import start_dashboard

CHAT = -100777
ADMIN = 1


def _bank(questions: int) -> str:
    lines = ["id: big", 'title: "A big quiz"', "level: medium", "questions:"]
    for number in range(1, questions + 1):
        lines += [
            f"  - id: q{number}",
            f'    text: "Question number {number}: which option is the right one here?"',
            '    options: ["first", "second", "third", "fourth"]',
            f"    answer: {number % 4}",
        ]
    return "\n".join(lines) + "\n"


def _fill(path: Path, members: int, questions: int) -> None:
    ids = [f"q{number}" for number in range(1, questions + 1)]
    with sqlite3.connect(path) as db:
        db.execute(
            """INSERT INTO group_sessions (id, chat_id, chat_type, quiz_id, question_ids, seconds,
                   mode, language, started_by, started_at, position, finished_at, outcome)
               VALUES (1, ?, 'supergroup', 'big', ?, 30, 'buttons', 'en', ?, 1000, ?, 9000,
                       'finished')""",
            (CHAT, json.dumps(ids), ADMIN, questions),
        )
        db.executemany(
            """INSERT INTO group_questions (session_id, position, question_id, message_id,
                   asked_at, deadline, revealed_at) VALUES (1, ?, ?, ?, 1000, 1030, 1030)""",
            [(position, question, position + 10) for position, question in enumerate(ids)],
        )
        db.executemany(
            """INSERT INTO group_answers (session_id, position, question_id, user_id, name,
                   chosen, correct, elapsed, points, answered_at)
               VALUES (1, ?, ?, ?, ?, ?, ?, 5.0, 750, 1010)""",
            [
                (position, question, 1000 + member, f"Member {member}", member % 4,
                 int(member % 4 == (position + 1) % 4))
                for position, question in enumerate(ids)
                for member in range(members)
            ],
        )  # fmt: skip


async def _run(members: int, questions: int, repeat: int) -> dict[str, float]:
    api = FakeBotApi()
    await api.start()
    api.group(CHAT, "A large class", admins={ADMIN})
    with tempfile.TemporaryDirectory() as folder:
        banks = Path(folder) / "banks"
        banks.mkdir()
        (banks / "big.yaml").write_text(_bank(questions), encoding="utf-8")
        db_path = Path(folder) / "quiz.sqlite3"
        settings = Settings(
            token=api.token,
            api_base_url=api.base_url,
            db_path=db_path,
            content_dir=banks,
            poll_timeout=1,
            toast_process="off",
            app_url="https://bench.example/app/",
        )
        application = build_application(settings)
        await application.initialize()
        assert application.post_init is not None and application.updater is not None
        await application.post_init(application)
        _fill(db_path, members, questions)
        await application.updater.start_polling(poll_interval=0, allowed_updates=Update.ALL_TYPES)
        await application.start()
        listener = await start_dashboard(application, 0)
        init_data = sign_init_data({"id": ADMIN, "first_name": "Ada"}, api.token, int(time.time()))
        url = f"http://127.0.0.1:{listener.port}/app/api/chats/{CHAT}/grid?quiz=big"
        times, size = [], 0
        try:
            async with aiohttp.ClientSession() as session:
                for _ in range(repeat):
                    started = time.perf_counter()
                    async with session.get(url, headers={"Authorization": f"tma {init_data}"}) as r:
                        body = await r.read()
                        assert r.status == 200, r.status
                    times.append((time.perf_counter() - started) * 1000)
                    size = len(body)
                    await asyncio.sleep(0.25)  # the dashboard's rate per person
        finally:
            await listener.close()
            await application.updater.stop()
            await application.stop()
            await application.shutdown()
            assert application.post_shutdown is not None
            await application.post_shutdown(application)
            await api.stop()
    grid = json.loads(body)
    assert len(grid["learners"]) == members and len(grid["questions"]) == questions
    return {
        "members": members,
        "questions": questions,
        "first_ms": round(times[0], 1),
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(sorted(times)[int(0.95 * (len(times) - 1))], 1),
        "bytes": size,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()
    result = asyncio.run(_run(options.members, options.questions, options.repeat))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
