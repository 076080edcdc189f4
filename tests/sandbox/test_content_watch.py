"""`python -m bot sandbox --content DIR`: an author's banks, reloaded when a file changes; a
bank that fails validation is shown with its errors on the page and in the log, and the
others are still served."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.app import QuizApplication
from bot.config import DEFAULT_CONTENT_DIR, Settings
from bot.core.context import SERVICES_KEY
from bot.sandbox import FakeBotApi
from bot.sandbox.run import watch_content
from bot.sandbox.web.cast import Cast
from bot.sandbox.web.page import SandboxPage
from tests.support.harness import running_bot
from tests.support.page import Events, bot_says, post

SEED = (DEFAULT_CONTENT_DIR / "model-pipeline-parallelism.yaml").read_text(encoding="utf-8")
TITLE = 'title: {en: "Model and Pipeline Parallelism"'
BROKEN = "id: broken\ntitle: Broken\nlevel: easy\nquestions:\n  - id: q1\n    text: Two?\n    options: [a]\n    answer: 3\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    banks = tmp_path / "banks"
    banks.mkdir()
    (banks / "seed.yaml").write_text(SEED, encoding="utf-8")
    (banks / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    return banks


@pytest.fixture
async def watched(
    api: FakeBotApi, settings: Settings, folder: Path
) -> AsyncIterator[tuple[TestClient[Any, Any], Events, QuizApplication]]:
    cast = Cast(api)
    page = SandboxPage(api, cast)
    author_settings = replace(settings, content_dir=folder)
    async with (
        running_bot(author_settings) as application,
        TestClient(TestServer(page.application(), host="127.0.0.1")) as client,
    ):
        response = await client.get("/api/events")
        events = Events(response)
        await events.next()  # the state
        watcher = asyncio.get_running_loop().create_task(
            watch_content(folder, application.bot_data[SERVICES_KEY], page)
        )
        try:
            yield client, events, application
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            response.close()


def _content(event: dict[str, Any]) -> bool:
    return bool(event["kind"] == "content")


async def test_an_authors_banks_are_reloaded_and_a_broken_one_is_shown_with_its_errors(
    watched: tuple[TestClient[Any, Any], Events, QuizApplication],
    folder: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    client, events, _ = watched
    first = await events.until(_content)
    assert list(first["errors"]) == ["broken.yaml"]
    assert any("q1" in error for error in first["errors"]["broken.yaml"])
    state = await (await client.get("/api/state")).json()
    assert list(state["content_errors"]) == ["broken.yaml"]

    seed = folder / "seed.yaml"
    seed.write_text(SEED.replace(TITLE, 'title: {en: "Pipelines, revised"'), encoding="utf-8")
    await events.until(_content)
    await post(client, "/api/send", {"person": "emma", "chat_id": 1002, "text": "/quizzes"})
    await events.until(bot_says(1002, "Pipelines, revised"))

    caplog.set_level(logging.ERROR, logger="bot.sandbox")
    seed.write_text(SEED.replace("answer: 0", "answer: 9", 1), encoding="utf-8")
    broken_too = await events.until(lambda e: _content(e) and "seed.yaml" in e["errors"])
    assert set(broken_too["errors"]) == {"broken.yaml", "seed.yaml"}
    assert any("seed.yaml refused" in r.getMessage() for r in caplog.records)
    await post(
        client,
        "/api/send",
        {"person": "emma", "chat_id": 1002, "text": "/quiz model-pipeline-parallelism"},
    )
    await events.until(bot_says(1002, "Pipelines, revised"))  # the last good version serves

    (folder / "broken.yaml").write_text(
        BROKEN.replace("[a]", "[a, b]").replace("3", "1"), encoding="utf-8"
    )
    fixed = await events.until(lambda e: _content(e) and "broken.yaml" not in e["errors"])
    assert list(fixed["errors"]) == ["seed.yaml"]
    await post(client, "/api/send", {"person": "ade", "chat_id": 1001, "text": "/quiz broken"})
    await events.until(bot_says(1001, "Two?"))
