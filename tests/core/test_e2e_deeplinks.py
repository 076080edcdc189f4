"""Deep links end to end: a forged or expired payload is refused politely and records nothing;
a quiz's own deep link still opens the quiz."""

from __future__ import annotations

import sqlite3
import time

from bot.config import Settings
from bot.core.deeplinks import LinkSigner, MissedReview, key_from_token, url
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import running_bot

TOLA = FakeUser(4101, "Tola")


def _users(settings: Settings) -> list[int]:
    with sqlite3.connect(settings.db_path) as db:
        return [row[0] for row in db.execute("SELECT user_id FROM users")]


async def test_forged_and_expired_links_are_refused_politely(
    api: FakeBotApi, settings: Settings
) -> None:
    signer = LinkSigner(key_from_token(api.token))
    username = str(api.bot_user["username"])
    good = signer.encode(MissedReview(1), time.time())
    forged = good[:-1] + ("A" if good[-1] != "A" else "B")
    other_bot = LinkSigner(key_from_token("42:another")).encode(MissedReview(1), time.time())
    expired = signer.encode(MissedReview(1), time.time() - 40 * 86_400)
    async with running_bot(settings):
        for payload, expect in (
            (forged, "cannot open this link"),
            (other_bot, "cannot open this link"),
            ("Zzz", "cannot open this link"),
            (expired, "this link has expired"),
        ):
            seen = len(api.bot_messages(TOLA.id))
            api.open_link(TOLA, url(username, payload))
            await api.wait_for_bot_message(TOLA.id, expect, after=seen)
        assert _users(settings) == []  # a refused link creates nobody
        seen = len(api.bot_messages(TOLA.id))
        api.open_link(TOLA, url(username, "quiz-model-pipeline-parallelism"))
        await api.wait_for_bot_message(TOLA.id, "Question 1 of", after=seen)
        assert _users(settings) == [TOLA.id]
