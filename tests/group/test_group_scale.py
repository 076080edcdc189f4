"""A large group answering at once, end to end: real Application, real HTTP, real SQLite, the
stand-in. Members' answers are handled side by side (bot/core/update_processor.py) and written
in batches (storage/group_batch.py); an admin's Reveal still comes after every tap before it.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from content.group_rules import points
from tests.support.harness import running_bot
from tests.support.room import ADA, BO, GROUP_ID, Room, group_answers, reveal_data

MEMBERS = 1000
RECORDED = ("✅", "❌")  # a right or a wrong answer, taken
CLOSED = "Time is up for this question."


async def test_a_reveal_racing_a_thousand_taps_counts_exactly_the_committed_ones(
    api: FakeBotApi, settings: Settings
) -> None:
    room = Room(api, api.group(GROUP_ID, "crowd", admins={ADA.id}))
    async with running_bot(settings):
        question = await room.say(ADA, "/groupquiz tiny 600", "Question 1 of 3")
        buttons = question.button_data()
        options, reveal = buttons, reveal_data(question)  # a forged Reveal: none is shown
        members = [FakeUser(10_000 + n, f"member{n}") for n in range(MEMBERS)]
        before = [
            api.tap(member, question, options[n % len(options)])
            for n, member in enumerate(members[: MEMBERS // 2])
        ]
        revealing = api.tap(ADA, question, reveal, forge=True)
        after = [
            api.tap(member, question, options[n % len(options)])
            for n, member in enumerate(members[MEMBERS // 2 :])
        ]
        every = [*before, revealing, *after]
        await api.wait_for(lambda: all(q in api.callback_answers for q in every), 60)
        shown = await room.revealed(question)

    def toast(query_id: str) -> str:
        return str(api.callback_answers[query_id]["text"] or "")

    taken = [q for q in before + after if toast(q).startswith(RECORDED)]
    refused = [q for q in before + after if toast(q) == CLOSED]
    assert len(taken) + len(refused) == MEMBERS  # every tap told one or the other
    assert set(taken) == set(before)  # every tap before the Reveal counted, none after it
    stored = [row for row in group_answers(Path(settings.db_path)) if row[0] == 0]
    assert len(stored) == len(taken) == len({row[1] for row in stored})
    assert f"👥 {len(taken)} answered" in shown.text
    for number, label in enumerate(("three", "four", "five")):
        chose = sum(1 for row in stored if row[2] == number)
        assert re.search(rf"{label} · {chose} chose it", shown.text)


async def test_a_tap_that_waited_for_its_turn_is_timed_when_it_arrived(
    api: FakeBotApi, settings: Settings
) -> None:
    now = [time.time()]
    room = Room(api, api.group(GROUP_ID, "crowd", admins={ADA.id}))
    async with running_bot(settings, clock=lambda: now[0]):
        question = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        asked_at = now[0]
        now[0] = asked_at + 1  # Bo taps a second after the question was asked...
        api.delay("sendMessage", 2.0)  # ...just after a /leaderboard that the chat waits for
        api.send_text(ADA, "/leaderboard", room.chat)
        tap = api.tap(BO, question, question.button_data()[1])  # "four": right
        await api.wait_for(lambda: "sendMessage" in api.delayed)
        now[0] = asked_at + 30  # Bo's tap is handled half a minute later
        toast = str((await api.wait_for_answer(tap))["text"])
    earned = points(True, 1.0, 60)  # not points(True, 30.0, 60): 992, not 750
    assert f"+{earned} points" in toast
    assert (0, BO.id, 1, earned) in group_answers(Path(settings.db_path))
