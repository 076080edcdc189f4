"""Group and channel quizzes end to end: real Application, real HTTP, real SQLite, the stand-in.

Question durations are a few seconds (the tests lower `group_min_seconds`); every wait is on
the stand-in's `wait_for`, never a sleep.
"""

from __future__ import annotations

from dataclasses import replace

from bot.app import QuizApplication
from bot.config import Settings
from bot.core.context import SERVICES_KEY
from bot.sandbox import FakeBotApi, FakeUser, poll_answer
from tests.support.harness import running_bot
from tests.support.room import (
    ADA,
    BO,
    CY,
    DI,
    ED,
    GROUP_ID,
    ISOLATE,
    LONG_WHY,
    Room,
    group_answers,
    plain,
)


async def test_a_group_quiz_with_answers_twice_late_and_a_non_admin(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    async with running_bot(settings):
        await room.say(DI, "/groupquiz tiny 60", "Only the chat's admins")
        await room.say(ADA, "/groupquiz nosuch 60", "I have no quiz called")
        await room.say(ADA, "/groupquiz tiny 0", "Seconds per question")
        q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        assert "a quiz for the whole chat" in room.messages()[-2].text
        assert "Tiny <quiz> & co" in q1.text and "👥 0 answered" in q1.text
        await room.say(ADA, "/groupquiz tiny 60", "A quiz is already running here")

        assert (await room.tap(BO, q1, 1)).startswith("✅ Right! +")
        assert (await room.tap(CY, q1, 0)).startswith("❌ Not quite")
        assert await room.tap(BO, q1, 2) == "Your answer B stands: one answer per question."
        assert await room.tap(BO, q1, 1) == "Your answer B stands: one answer per question."
        assert (await room.tap(DI, q1, 1)).startswith("✅")
        # the live count catches up (paced: at most one redraw every few seconds)
        await api.wait_for(lambda: "👥 3 answered" in room.current(q1).text)

        assert len(q1.buttons) == 3  # the chat's keyboard is for answering only: no Reveal
        assert await room.reveal_tap(DI, q1) == "Only the chat's admins can do that."
        await room.say(DI, "/stopquiz", "Only the chat's admins")
        await room.say(DI, "/skip", "Only the chat's admins")
        assert "chose it" not in room.current(q1).text

        seen = len(room.messages())
        api.send_text(ADA, "/skip", room.chat)  # revealed by an admin, long before the timer
        shown = await room.revealed(q1)
        assert "✅ B. four · 2 chose it" in shown.text
        assert "▫️ A. three · 1 chose it" in shown.text
        assert "▫️ C. five · 0 chose it" in shown.text
        assert "👥 3 answered" in shown.text and "Two and two make four" in shown.text
        assert shown.reply_markup is None
        q2 = await api.wait_for_bot_message(GROUP_ID, "Question 2 of 3", after=seen)

        assert await room.tap(ED, q1, 1) == "Time is up for this question."  # late
        assert (await room.tap(ED, q2, 1)).startswith("❌")  # Lyon: wrong, no points
        seen = len(room.messages())
        await room.say(ADA, "/skip", "Question 3 of 3")
        assert "1 chose it" in (await room.revealed(q2)).text
        q3 = room.messages()[-1]
        assert (await room.tap(CY, q3, 1)).startswith("✅")
        seen = len(room.messages())
        api.send_text(ADA, "/stopquiz", room.chat)
        await api.wait_for_bot_message(GROUP_ID, "The quiz was stopped", after=seen)
        final = await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)
        assert room.current(q3).reply_markup is None
        assert await room.tap(BO, q3, 0) == "This quiz is over. /leaderboard shows the results."
        lines = final.text.splitlines()[2:]
        names = [line.split(":")[0].split(" ", 1)[1].strip(ISOLATE) for line in lines]
        assert sorted(names) == ["<Cy & Co>", "Bo", "Di", "Ed"]
        assert names.index("Bo") < names.index("Di")  # same answer, Bo was faster
        assert plain(lines[-1]).startswith("4. Ed: 0 points")
        assert "&lt;Cy &amp; Co&gt;" in final.html

        board = await room.say(CY, "/leaderboard", "Last quiz")
        assert "All-time in this chat" in board.text and "<Cy & Co>" in board.text
        await room.say(ADA, "/stopquiz", "No quiz is running here")
    assert [call for call in api.calls if not call.ok] == []
    # one status look-up per person, not per command or tap: PTB's rate limiter counts
    # getChatMember against the group's 20 a minute
    assert len(api.calls_to("getChatMember")) == 2
    answers = group_answers(settings.db_path)
    assert [(p, u, c) for p, u, c, _ in answers] == [
        (0, 2, 1), (0, 3, 0), (0, 4, 1), (1, 5, 1), (2, 3, 1),
    ]  # fmt: skip
    assert all(500 <= pts <= 1000 for p, u, c, pts in answers if (p, c) in {(0, 1), (1, 0), (2, 1)})


async def test_the_timer_reveals_and_the_quiz_runs_to_its_final_ranking(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    async with running_bot(settings):
        question = await room.say(ADA, "/groupquiz tiny 4", "Question 1 of 3")
        picks = {BO: [1, 0, 1], CY: [1, 1, 0], DI: [0, 0, 1]}  # Bo 3 right, Cy 1, Di 2
        for position in range(3):
            for user, options in picks.items():
                await room.tap(user, question, options[position])
            seen = len(room.messages())
            shown = await room.revealed(question)  # nobody tapped Reveal: the timer did
            assert "👥 3 answered" in shown.text
            expect = f"Question {position + 2} of 3" if position < 2 else "final results"
            question = await api.wait_for_bot_message(GROUP_ID, expect, after=seen)
        names = [plain(line.split(":")[0]) for line in question.text.splitlines()[2:]]
        assert names == ["🥇 Bo", "🥈 Di", "🥉 <Cy & Co>"]
        answers = group_answers(settings.db_path)
        assert len(answers) == 9
        right = [pts for pos, _, chosen, pts in answers if chosen == [1, 0, 1][pos]]
        assert len(right) == 6 and all(500 <= pts <= 1000 for pts in right)
        assert all(pts == 0 for pos, _, chosen, pts in answers if chosen != [1, 0, 1][pos])
    assert not any(call.description.startswith("Too Many") for call in api.calls)


async def test_a_restart_mid_question_resumes_the_session_and_its_timer(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    async with running_bot(settings):
        q1 = await room.say(ADA, "/groupquiz tiny 8", "Question 1 of 3")
        assert (await room.tap(BO, q1, 1)).startswith("✅")
    assert "chose it" not in room.current(q1).text  # stopped before the timer fired
    async with running_bot(settings):
        seen = len(room.messages())
        assert (await room.tap(CY, q1, 1)).startswith("✅")  # answers still count
        shown = await room.revealed(q1)  # the re-armed timer fires
        assert "✅ B. four · 2 chose it" in shown.text
        q2 = await api.wait_for_bot_message(GROUP_ID, "Question 2 of 3", after=seen)
        assert (await room.tap(BO, q2, 0)).startswith("✅")
        seen = len(room.messages())
        api.send_text(ADA, "/stopquiz", room.chat)
        final = await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)
        assert plain(final.text.splitlines()[2]).startswith("🥇 Bo")
    assert len(group_answers(settings.db_path)) == 3


async def test_a_channel_quiz_posted_by_an_admin(api: FakeBotApi, settings: Settings) -> None:
    channel = api.group(-100777, "news", admins={ADA.id}, type="channel")
    room = Room(api, channel)
    async with running_bot(settings):
        api.post_in_channel(channel, "/groupquiz tiny 60")
        q1 = await api.wait_for_bot_message(channel.id, "Question 1 of 3")
        assert (await room.tap(BO, q1, 1)).startswith("✅")  # a subscriber answers
        assert (await room.tap(CY, q1, 1)).startswith("✅")
        assert await room.tap(BO, q1, 0) == "Your answer B stands: one answer per question."
        assert await room.reveal_tap(BO, q1) == "Only the chat's admins can do that."
        seen = len(room.messages())
        await room.reveal_tap(ADA, q1)  # an older message's Reveal button still works
        assert "✅ B. four · 2 chose it" in (await room.revealed(q1)).text
        await api.wait_for_bot_message(channel.id, "Question 2 of 3", after=seen)
        seen = len(room.messages())
        api.post_in_channel(channel, "/stopquiz")
        final = await api.wait_for_bot_message(channel.id, "final results", after=seen)
        assert "Bo" in final.text and "&lt;Cy &amp; Co&gt;" in final.html
        seen = len(room.messages())
        api.post_in_channel(channel, "/groupquiz tiny 60 poll")
        await api.wait_for_bot_message(channel.id, "only anonymous polls", after=seen)
        api.post_in_channel(channel, "/leaderboard")
        await api.wait_for_bot_message(channel.id, "All-time in this chat", after=seen)
    assert all(message.chat.id == channel.id for message in room.messages())


async def test_many_answers_stay_inside_20_a_minute_and_a_429_is_waited_out(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    crowd = [FakeUser(100 + n, f"P{n}") for n in range(12)]
    # no pause between redraws: only the chat's budget holds them back
    async with running_bot(replace(settings, group_count_interval=0.0)):
        q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
        for _ in range(10):  # use up most of the chat's minute: 2 + 10 = 12 sends
            await room.say(BO, "/leaderboard", "This quiz")
        for person in crowd:  # twelve answers: redraws would take the chat past 20
            assert (await room.tap(person, q1, 1)).startswith("✅")
        # redraws stop while the chat is near its limit (12 sends + 5 redraws, 3 spare):
        # the count shown lags behind
        await api.wait_for(lambda: room.current(q1).edits >= 3)
        assert "👥 12 answered" not in room.current(q1).text
        # the next question's message meets a 429 (as if another client shared the chat)
        api.fail("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)
        seen = len(room.messages())
        await room.reveal_tap(ADA, q1)
        assert "👥 12 answered" in (await room.revealed(q1)).text
        q2 = await api.wait_for_bot_message(GROUP_ID, "Question 2 of 3", after=seen)
        assert (await room.tap(BO, q2, 0)).startswith("✅")
    refused = [call for call in api.calls if not call.ok]
    assert [call.description for call in refused] == ["Too Many Requests: retry after 1"]
    assert len([m for m in room.messages() if "Question 2 of 3" in m.text]) == 1
    group_calls = [
        c for c in api.calls
        if c.ok and c.method in {"sendMessage", "editMessageText", "editMessageReplyMarkup"}
        and str(c.params.get("chat_id")) == str(GROUP_ID)
    ]  # fmt: skip
    assert len(group_calls) <= 20  # all within the same minute: never past Telegram's limit
    assert len(group_answers(settings.db_path)) == 13


async def test_poll_mode_maps_votes_to_people_and_continues_long_explanations(
    api: FakeBotApi, settings: Settings, room: Room
) -> None:
    async with running_bot(settings) as application:
        services = application.bot_data[SERVICES_KEY]
        first = await room.poll_quiz(ADA, "tiny")
        assert first.poll is not None
        poll = first.poll
        assert poll["type"] == "quiz" and poll["is_anonymous"] is False
        assert poll["question"] == "[1/3] Two plus two?"
        assert poll["correct_option_ids"] == [1]
        assert len(poll["explanation"]) <= 200 and poll["explanation"].endswith("…")
        api.vote(BO, first, 1)
        api.vote(CY, first, 0)
        # a second answer from Bo (a client that misbehaves): his first one stands
        api.push_update({"poll_answer": poll_answer(poll["id"], BO, 2)})
        await api.wait_until_polled()
        await api.wait_for(lambda: len(group_answers(settings.db_path)) == 2)
        seen = len(room.messages())
        api.send_text(ADA, "/skip", room.chat)
        await api.wait_for(lambda: poll["is_closed"])
        more = await api.wait_for_bot_message(GROUP_ID, "Why (question 1)", after=seen)
        assert LONG_WHY.strip() in more.text
        second = await room.poll(2)
        assert second.poll is not None and second.poll["question"] == "[2/3] Capital of France?"
        # a closed poll's chat is forgotten (a vote on it is refused anyway): the map holds
        # the open polls only
        assert list(services.poll_chats) == [second.poll["id"]]
        api.vote(DI, second, 0)
        await api.wait_for(lambda: len(group_answers(settings.db_path)) == 3)
        seen = len(room.messages())
        api.send_text(ADA, "/stopquiz", room.chat)
        final = await api.wait_for_bot_message(GROUP_ID, "final results", after=seen)
        assert second.poll["is_closed"]
        assert len(services.poll_chats) == len(services.locks.sessions) == 0
        names = [plain(line.split(":")[0]) for line in final.text.splitlines()[2:]]
        assert names[:2] in (["🥇 Bo", "🥈 Di"], ["🥇 Di", "🥈 Bo"])
    assert [(p, u, c) for p, u, c, _ in group_answers(settings.db_path)] == [
        (0, 2, 1), (0, 3, 0), (1, 4, 0),
    ]  # fmt: skip


async def test_a_question_telegram_refused_to_post_is_posted_again(
    api: FakeBotApi, bot: QuizApplication, room: Room
) -> None:
    q1 = await room.say(ADA, "/groupquiz tiny 60", "Question 1 of 3")
    assert (await room.tap(BO, q1, 1)).startswith("✅")
    api.fail("sendMessage", 502, "Bad Gateway")  # not a 429: no rate-limiter retry
    seen = len(room.messages())
    await room.reveal_tap(ADA, q1)
    await room.revealed(q1)
    q2 = await api.wait_for_bot_message(GROUP_ID, "Question 2 of 3", after=seen)
    assert (await room.tap(CY, q2, 0)).startswith("✅")
    assert [call.description for call in api.calls if not call.ok] == ["Bad Gateway"]
    assert len([m for m in room.messages() if "Question 2 of 3" in m.text]) == 1
