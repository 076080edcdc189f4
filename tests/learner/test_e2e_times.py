"""`/remind 7pm` and `/remind 19:00` are one time; `/timezone Lagos` suggests the zones it may
mean as buttons (the learner's, and a group's for its admins)."""

from __future__ import annotations

import sqlite3
import time as clock
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.config import Settings
from bot.sandbox import FakeBotApi
from content.rules import suggest_timezones
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BO, GROUP_ID, Room, room_settings


def _settings(api: FakeBotApi, tmp_path: Path) -> Settings:
    return room_settings(api, tmp_path)


async def test_remind_at_7pm_and_a_zone_picked_from_suggestions(
    api: FakeBotApi, tmp_path: Path
) -> None:
    settings = _settings(api, tmp_path)
    bo = Learner(api, BO)
    room = Room(api, api.group(GROUP_ID, "Study group", admins={ADA.id}))
    async with running_bot(settings):
        await bo.send("/remind 7pm", "19:00")
        await bo.send("/remind 7:30 pm", "19:30")
        await bo.send("/remind 19:00", "19:00")
        await bo.send("/remind 25pm", "is not a time")
        asked = await bo.send("/timezone Lagos", "Did you mean")
        assert [b["text"] for b in asked.buttons] == ["Africa/Lagos"]
        await bo.tap(asked, asked.button_data()[0])
        await api.wait_for(
            lambda: "Africa/Lagos" in api.messages[(BO.id, asked.message_id)].text or None
        )
        asked = await bo.send("/timezone new york", "Did you mean")
        assert [b["text"] for b in asked.buttons] == ["America/New_York"]
        await bo.send("/timezone Nowhereville", "I don't know the time zone")
        # a group's: its admins only
        offer = await room.say(ADA, "/timezone lagos", "Did you mean")
        assert await room.tap(BO, offer, 0) == "Only the chat's admins can do that."
        await room.tap(ADA, offer, 0)
        await api.wait_for(lambda: "Africa/Lagos" in room.current(offer).text or None)
    with sqlite3.connect(settings.db_path) as db:
        assert db.execute("SELECT timezone, remind_at FROM users").fetchall() == [
            ("Africa/Lagos", "19:00")
        ]
        assert db.execute("SELECT timezone FROM chat_settings").fetchall() == [("Africa/Lagos",)]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=100))
def test_any_text_gets_at_most_four_zones_that_exist(text: str) -> None:
    zones = suggest_timezones(text)
    assert len(zones) <= 4 and all("/" in zone for zone in zones)


def test_a_name_twice_as_long_costs_about_twice_the_time() -> None:
    """Hostile input is cut to a zone name's length first: no quadratic case."""

    def cost(text: str) -> float:
        times = []
        for _ in range(5):
            started = clock.perf_counter()
            suggest_timezones(text)
            times.append(clock.perf_counter() - started)
        return sorted(times)[2]

    suggest_timezones("warm up")
    short, long = cost("qz" * 5000), cost("qz" * 10000)
    assert long < 3 * short + 0.01
