"""The dashboard under test: the real Application with the dashboard's own listener on
127.0.0.1, a clock the test moves, and a Mini App's requests signed as Telegram signs a
Mini App's initData."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from bot.sandbox.web_app import sign_init_data
from bot.serving.dashboard import start_dashboard
from bot.serving.http import Listener
from tests.support.harness import running_bot
from tests.support.room import ADA, BO, CY, GROUP_ID, Room

APP_URL = "https://quiz.example.org/app/"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def dashboard(
    settings: Settings, clock: Clock
) -> AsyncIterator[tuple[QuizApplication, Listener]]:
    async with running_bot(settings, clock) as application:
        listener = await start_dashboard(application, 0)
        try:
            yield application, listener
        finally:
            await listener.close()


class Browser:
    """A Mini App opened by `user`: initData signed with the bot's token."""

    def __init__(self, listener: Listener, api: FakeBotApi, user: FakeUser, clock: Clock):
        self.base = f"http://127.0.0.1:{listener.port}/app/"
        self.init_data = sign_init_data(
            {"id": user.id, "first_name": user.first_name}, api.token, int(clock.now)
        )

    async def get(self, path: str, init_data: str | None = None) -> tuple[int, Any]:
        return await self.request("GET", path, init_data)

    async def post(self, path: str) -> tuple[int, Any]:
        return await self.request("POST", path)

    async def request(
        self, method: str, path: str, init_data: str | None = None, signed: bool = True
    ) -> tuple[int, Any]:
        """The status and the body (JSON, text, or bytes for a file); `signed=False`: no
        Authorization header, as a plain link is followed."""
        given = self.init_data if init_data is None else init_data
        headers = {"Authorization": f"tma {given}"} if signed else {}
        async with (
            aiohttp.ClientSession() as session,
            session.request(method, self.base + path, headers=headers) as response,
        ):
            kind = response.headers.get("Content-Type", "")
            if "json" in kind:
                return response.status, await response.json()
            if kind.startswith("text/html"):
                return response.status, await response.text()
            return response.status, await response.read()


async def play_a_quiz(api: FakeBotApi, room: Room) -> None:
    """Ada runs the small quiz in the group; Bo answers the first question right, Cy wrong."""
    q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
    assert (await room.tap(BO, q1, 1)).startswith("✅")
    assert (await room.tap(CY, q1, 0)).startswith("❌")
    seen = len(room.messages())
    api.send_text(ADA, "/stopquiz", room.chat)
    await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)
