"""A bank of every question type in a group, before the group side plays them: /groupquiz
asks what a chat can play and says how many questions it skipped; /push posts only those; a
quiz with nothing a chat can play is refused. Nothing crashes, nothing is asked half-drawn."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.config import DEFAULT_CONTENT_DIR
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import make_settings, running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BO, GROUP_ID, Room

DRILL = "parallelism-drill"
ONLY_TYPED = """
id: typed-only
title: Typed only
level: easy
questions:
  - {id: t1, type: typed, text: "Say bubble", answer: ["bubble"]}
  - {id: n1, type: numeric, text: "Say 14", answer: 14}
"""
ADMIN = FakeUser(900, "Ade", "en")


def _banks(tmp_path: Path) -> Path:
    banks = tmp_path / "banks"
    shutil.copytree(DEFAULT_CONTENT_DIR / DRILL, banks / DRILL)
    (banks / "typed-only.yaml").write_text(ONLY_TYPED, encoding="utf-8")
    return banks


async def test_a_group_quiz_of_the_drill_bank_skips_what_a_chat_cannot_play(
    api: FakeBotApi, tmp_path: Path
) -> None:
    settings = make_settings(
        api, tmp_path / "quiz.sqlite3", content_dir=_banks(tmp_path), group_min_seconds=1
    )
    room = Room(api, api.group(GROUP_ID, "study", admins={ADA.id}))
    async with running_bot(settings):
        await room.say(ADA, "/groupquiz typed-only 30", "cannot play any question of")
        first = await room.say(ADA, f"/groupquiz {DRILL} 30", "Question 1 of 2")
        intro = room.messages()[-2].text
        assert "13 question(s) of this quiz are skipped here" in intro
        assert "What does this print?" in first.text  # pd-11, a single question with code
        assert (await room.tap(BO, first, 0)).startswith(("✅", "❌"))
        await room.say(ADA, "/skip", "Question 2 of 2")
    assert not [c for c in api.calls if not c.ok and c.method != "getUpdates"]


async def test_push_posts_only_what_a_chat_can_play(api: FakeBotApi, tmp_path: Path) -> None:
    settings = make_settings(
        api,
        tmp_path / "quiz.sqlite3",
        content_dir=_banks(tmp_path),
        admin_ids=frozenset({ADMIN.id}),
    )
    channel = api.group(-100777, "news", admins={ADMIN.id}, type="channel")
    admin = Learner(api, ADMIN)
    async with running_bot(settings):
        await admin.send(f"/push {DRILL} @news", "Question 11 of 15")  # pd-11: the first one
        await admin.send(f"/push {DRILL} @news", "Question 13 of 15")
        await admin.send(f"/push {DRILL} @news", "has been posted to")
        await admin.send("/push typed-only @news", "No question of")
    posts = api.bot_messages(channel.id)
    assert len(posts) == 2 and not any(m.buttons for m in posts)  # each revealed by the next
    assert "What does this print?" in posts[0].text and "3D parallelism" in posts[1].text
    assert not [c for c in api.calls if not c.ok and c.method != "getUpdates"]
