"""The sandbox page's event stream and API, as the page uses them (tests/sandbox/)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient


class Events:
    """The page's event stream, read as the page reads it."""

    def __init__(self, response: ClientResponse) -> None:
        self.response = response
        self.seen: list[dict[str, Any]] = []

    async def next(self) -> dict[str, Any]:
        data = ""
        while True:
            line = (await self.response.content.readline()).decode()
            if not line:
                raise AssertionError(f"the event stream ended; seen: {self.seen}")
            if line.startswith("data: "):
                data += line[6:].rstrip("\n")
            elif line == "\n" and data:
                event: dict[str, Any] = json.loads(data)
                self.seen.append(event)
                return event

    async def until(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = 15.0
    ) -> dict[str, Any]:
        async def read() -> dict[str, Any]:
            while True:
                event = await self.next()
                if test(event):
                    return event

        try:
            return await asyncio.wait_for(read(), timeout)
        except TimeoutError:
            kinds = [
                (e["kind"], text_of(e.get("message", {}).get("text", []))[:60])
                for e in self.seen[-8:]
            ]
            raise AssertionError(f"no such event in {timeout}s; last: {kinds}") from None


def text_of(nodes: list[Any]) -> str:
    """The visible text of a node tree."""
    return "".join(n if isinstance(n, str) else text_of(n["children"]) for n in nodes)


# What the page may draw of a message: Telegram's formatting tags, nothing else.
TELEGRAM_TAGS = frozenset({"b", "i", "u", "s", "code", "pre", "a", "spoiler", "blockquote"})


def tags_of(nodes: list[Any]) -> set[str]:
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, dict):
            found |= {node["tag"], *tags_of(node["children"])}
    return found


def bot_says(chat_id: int, words: str, kind: str = "message") -> Callable[[dict[str, Any]], bool]:
    def test(event: dict[str, Any]) -> bool:
        message = event.get("message") or {}
        return (
            event["kind"] == kind
            and message.get("chat_id") == chat_id
            and message.get("from") == "bot"
            and words in text_of(message["text"]) + text_of(message.get("caption", []))
        )

    return test


def origin(client: TestClient[Any, Any]) -> dict[str, str]:
    return {"Origin": f"http://127.0.0.1:{client.port}"}


async def post(client: TestClient[Any, Any], path: str, body: dict[str, Any]) -> Any:
    response = await client.post(path, json=body, headers=origin(client))
    assert response.status == 200, await response.text()
    return await response.json()
