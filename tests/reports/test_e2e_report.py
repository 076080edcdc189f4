"""`/report`: a group quiz's CSV to the admin in private (or a deep link when they cannot be
written to), its summary; `/report <quiz id>` for the bot's admins. The files are parsed."""

from __future__ import annotations

import io
from dataclasses import replace

from openpyxl import load_workbook

from bot.config import Settings
from bot.core.tables import rows_of
from bot.sandbox import FakeBotApi, FakeUser, Message
from tests.support.harness import running_bot
from tests.support.learner import Learner
from tests.support.room import ADA, BO, CY, GROUP_ID, Room

EVE = FakeUser(6, '=HYPERLINK("http://evil","x")')  # a name that is a formula


async def _document(api: FakeBotApi, chat_id: int, after: int) -> tuple[Message, bytes]:
    """The first document the bot sends into the chat after message `after`."""
    found = await api.wait_for(
        lambda: next((m for m in api.bot_messages(chat_id)[after:] if m.document), None)
    )
    return found, api.file_content(found.document or {})


async def test_a_group_report_reaches_the_admin_in_private_with_the_answers(
    api: FakeBotApi, room: Room, settings: Settings
) -> None:
    ada = Learner(api, ADA)
    async with running_bot(settings):
        await room.say(ADA, "/report", "No group quiz has been played here yet")
        await room.say(BO, "/report", "Only the chat's admins")
        q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        assert (await room.tap(BO, q1, 1)).startswith("✅")
        assert (await room.tap(EVE, q1, 0)).startswith("❌")
        q2 = await room.say(ADA, "/skip", "Question 2 of 3")
        assert (await room.tap(BO, q2, 1)).startswith("❌")
        assert (await room.tap(CY, q2, 0)).startswith("✅")
        q3 = await room.say(ADA, "/skip", "Question 3 of 3")
        assert (await room.tap(BO, q3, 1)).startswith("✅")
        await room.say(ADA, "/skip", "final results")

        # Ada never opened a private chat with the bot: a deep link, then the file
        offer = await room.say(ADA, "/report", "cannot write to you in private yet")
        seen = len(ada.messages())
        api.press_link(ADA, offer)
        summary = await api.wait_for_bot_message(ADA.id, "report", after=seen)
        assert "3 participants" in summary.text
        assert "Hardest: question 1, 1 of 2 right: Two plus two?" in summary.text
        document, data = await _document(api, ADA.id, seen)
        assert document.document is not None
        assert document.document["file_name"] == "report-tiny-group-1.csv"
        [chart] = [m for m in ada.messages()[seen:] if m.photo]  # before the file
        assert chart.caption is not None and "3 learners × 3 questions" in chart.caption
        assert chart.photo is not None and chart.photo[-1]["width"] <= 1280
        rows = rows_of(data)
        assert rows[0][:6] == ["name", "user id", "points", "right", "answered", "total time (s)"]
        assert rows[0][6:] == [
            "credit",
            "1. Two plus two?",
            "2. Capital of France?",
            "3. Colour of a clear sky?",
            "answer 1",
            "answer 2",
            "answer 3",
        ]
        by_id = {row[1]: row for row in rows[1:]}
        assert set(by_id) == {str(BO.id), str(CY.id), str(EVE.id)}
        bo = by_id[str(BO.id)]
        assert bo[0] == "Bo" and bo[3:5] == ["2", "3"]
        assert bo[6:] == ["2", "1", "0", "1", "B ✓", "B ✗", "B ✓"]  # the grid, then the answers
        cy = by_id[str(CY.id)]
        assert cy[0] == "<Cy & Co>" and cy[6:] == ["1", "", "1", "", "", "A ✓", ""]
        eve = by_id[str(EVE.id)]
        assert eve[0] == "'" + EVE.first_name and eve[7] == "0" and eve[10] == "A ✗"
        assert rows[1][1] == str(BO.id)  # ranked: Bo has the most points

        # now that Ada has a private chat, the file goes straight there
        seen = len(ada.messages())
        await room.say(ADA, "/report", "sent to you privately")
        _, again = await _document(api, ADA.id, seen)
        assert rows_of(again)[1:] == rows[1:]

        # an anonymous admin has no private chat: a link any chat admin may press
        before = len(room.messages())
        api.send_anonymously(room.chat, "/report")
        offer = await api.wait_for_bot_message(GROUP_ID, "Anonymous admins", after=before)
        seen = len(api.bot_messages(BO.id))
        api.press_link(BO, offer)
        await api.wait_for_bot_message(BO.id, "for the chat's admins", after=seen)
        assert not any(m.document for m in api.bot_messages(BO.id))
        seen = len(ada.messages())
        api.press_link(ADA, offer)
        _, data = await _document(api, ADA.id, seen)
        assert rows_of(data)[1:] == rows[1:]


async def test_a_bot_admin_gets_every_learners_latest_attempt(
    api: FakeBotApi, settings: Settings
) -> None:
    settings = replace(settings, admin_ids=frozenset({ADA.id}))
    ada, tola = Learner(api, ADA), Learner(api, FakeUser(70, "@Tola"))
    async with running_bot(settings):
        await tola.send("/report tiny", "for the bot's admins")
        await ada.send("/report", "Which quiz?")  # the quizzes as buttons (tests/core)
        await ada.send("/report nosuch", "I have no quiz called")
        await ada.send("/report tiny pdf", "The format is csv or xlsx")
        await ada.send("/report tiny", "Nobody has finished")
        question = await tola.send("/quiz tiny", "Two plus two?")
        _, question = await tola.choose(question, "four", "Capital of France?")
        _, question = await tola.choose(question, "Lyon", "Colour of a clear sky?")
        await tola.choose(question, "blue", "finished")
        seen = len(ada.messages())
        await ada.send("/report tiny", "latest attempt (1)")
        message, data = await _document(api, ADA.id, seen)
        assert message.document is not None and message.document["file_name"].endswith(".csv")
        rows = rows_of(data)
        assert rows[0][:4] == ["name", "user id", "score", "total"]
        assert rows[1][:4] == ["'@Tola", "70", "2", "3"]
        assert rows[1][6:] == ["2", "1", "0", "1", "B ✓", "B ✗", "B ✓"]
        [grid] = [m for m in ada.messages()[seen:] if m.photo]  # who got what, as a picture
        assert grid.caption is not None and "1 learner × 3 questions" in grid.caption
        seen = len(ada.messages())
        await ada.send("/report tiny xlsx", "latest attempt (1)")
        message, data = await _document(api, ADA.id, seen)
        sheet = load_workbook(io.BytesIO(data)).active
        assert sheet is not None
        assert [c.value for c in sheet[2]][:4] == ["'@Tola", 70, 2, 3]
