""" "Review what you missed": the deep link under a group quiz's results opens, in private, a
round of practice of exactly the questions that member got wrong or left unanswered."""

from __future__ import annotations

import sqlite3
import time

from bot.config import Settings
from bot.core.deeplinks import LinkSigner, MissedReview, key_from_token, url
from bot.sandbox import FakeBotApi
from tests.support.harness import running_bot
from tests.support.learner import Learner, button_for
from tests.support.room import ADA, BO, CY, DI, ED, Room


async def test_each_member_reviews_what_they_missed_and_others_are_refused(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    room.chat.members = {BO.id, CY.id, DI.id}  # Ed is not in the group
    bo = Learner(api, BO)
    async with running_bot(settings):
        q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        early = url(
            str(api.bot_user["username"]),
            LinkSigner(key_from_token(api.token)).encode(MissedReview(1), time.time()),
        )
        seen = len(bo.messages())
        api.open_link(BO, early)
        await api.wait_for_bot_message(BO.id, "still running", after=seen)

        assert (await room.tap(BO, q1, 1)).startswith("✅")  # four: right
        assert (await room.tap(CY, q1, 1)).startswith("✅")
        q2 = await room.say(ADA, "/skip", "Question 2 of 3")
        assert (await room.tap(BO, q2, 1)).startswith("❌")  # Lyon: wrong
        assert (await room.tap(CY, q2, 0)).startswith("✅")
        q3 = await room.say(ADA, "/skip", "Question 3 of 3")
        assert (await room.tap(CY, q3, 1)).startswith("✅")  # Bo leaves it unanswered
        final = await room.say(ADA, "/skip", "final results")
        [button] = final.buttons
        assert button["text"] == "📚 Review what you missed"
        link = button["url"]
        assert link.startswith("https://t.me/quiz_tutor_bot?start=M_")
        assert len(link.split("start=")[1]) <= 64

        seen = len(bo.messages())
        api.press_link(BO, final)
        intro = await api.wait_for_bot_message(BO.id, "you missed", after=seen)
        assert "2 questions" in intro.text
        first = await api.wait_for_bot_message(BO.id, "Capital of France?", after=seen)
        _, second = await bo.choose(first, "Paris", "Colour of a clear sky?")
        seen_done = len(bo.messages())
        assert (await bo.tap(second, button_for(second, "blue")))["text"].startswith("✅")
        # a round of practice: its end says so, and nothing is left to practise
        done = await api.wait_for_bot_message(BO.id, "Practice round finished", after=seen_done)
        assert "Every one right this time" in done.text
        assert "These answers were reviews of their cards" in done.text
        assert not any("Practise" in b["text"] for b in done.buttons)
        with sqlite3.connect(settings.db_path) as db:
            reviewed = db.execute(
                "SELECT quiz_id, question_id, correct FROM answers WHERE user_id=? ORDER BY id",
                (BO.id,),
            ).fetchall()
            cards = {row[0] for row in db.execute("SELECT question_id FROM cards WHERE user_id=?",
                                                  (BO.id,))}  # fmt: skip
        assert reviewed == [("tiny", "t2", 1), ("tiny", "t3", 1)]  # exactly what Bo missed
        assert cards == {"t1", "t2", "t3"}  # his group answers were reviews too (he has a row)

        seen = len(api.bot_messages(CY.id))
        api.press_link(CY, final)
        await api.wait_for_bot_message(CY.id, "nothing to review", after=seen)
        seen = len(api.bot_messages(ED.id))
        api.press_link(ED, final)
        await api.wait_for_bot_message(ED.id, "for the members of the chat", after=seen)
        # Di is a member who answered nothing: every question is hers to review
        seen = len(api.bot_messages(DI.id))
        api.press_link(DI, final)
        assert (
            "3 questions" in (await api.wait_for_bot_message(DI.id, "you missed", after=seen)).text
        )
        with sqlite3.connect(settings.db_path) as db:
            assert (
                db.execute("SELECT COUNT(*) FROM attempts WHERE user_id=?", (ED.id,)).fetchone()[0]
                == 0
            )
