"""A group quiz's report from the dashboard, end to end: sent by the bot into the teacher's
private chat, or downloaded once from a link signed for them (a plain link carries no
Authorization header): expired, replayed, another person's, altered, all refused."""

from __future__ import annotations

from bot.config import Settings
from bot.sandbox import FakeBotApi
from bot.sandbox.server import Message
from tests.support.dashboard import Browser, Clock, dashboard, play_a_quiz
from tests.support.room import ADA, BO, GROUP_ID, Room

OTHER_GROUP = -100999


async def played_session(ada: Browser) -> int:
    status, grid = await ada.get(f"api/chats/{GROUP_ID}/grid?quiz=tiny")
    assert status == 200
    return int(grid["session"])


def documents(api: FakeBotApi, chat_id: int) -> list[Message]:
    return [m for m in api.bot_messages(chat_id) if m.document]


async def test_send_to_my_chat_sends_the_report_file_into_the_private_chat(
    api: FakeBotApi, app_settings: Settings, room: Room, clock: Clock
) -> None:
    async with dashboard(app_settings, clock) as (_, listener):
        await play_a_quiz(api, room)
        ada, bo = Browser(listener, api, ADA, clock), Browser(listener, api, BO, clock)
        session = await played_session(ada)
        send = f"api/chats/{GROUP_ID}/sessions/{session}/send"

        assert await ada.post(send) == (409, {"error": "start_first"})  # no private chat yet
        private = api.private_chat(ADA)
        assert await ada.post(send + "?format=xlsx") == (200, {"sent": True})
        sent = await api.wait_for(lambda: documents(api, private.id))
        assert sent[0].document is not None
        assert sent[0].document["file_name"] == f"report-tiny-group-{session}.xlsx"
        first = api.bot_messages(private.id)[0]
        assert first.text and not first.document  # the summary, then the file, as /report

        assert (await bo.post(send))[0] == 403  # not an admin of the group
        assert (await ada.post(send + "?format=pdf"))[0] == 400
        assert (await ada.get(send))[0] == 405  # sending is a POST
        api.group(OTHER_GROUP, "other", admins={ADA.id})
        elsewhere = f"api/chats/{OTHER_GROUP}/sessions/{session}/send"
        assert (await ada.post(elsewhere))[0] == 404  # a quiz of another chat is not named
        assert len(documents(api, private.id)) == 1


async def test_a_download_link_gives_the_report_once_within_five_minutes(
    api: FakeBotApi, app_settings: Settings, room: Room, clock: Clock
) -> None:
    async with dashboard(app_settings, clock) as (_, listener):
        await play_a_quiz(api, room)
        ada = Browser(listener, api, ADA, clock)
        session = await played_session(ada)
        make = f"api/chats/{GROUP_ID}/sessions/{session}/link"

        status, made = await ada.post(make)
        assert status == 200 and made["expires"] == int(clock.now) + 300
        assert (await ada.request("HEAD", made["url"], signed=False))[0] == 405  # not used up
        status, body = await ada.request("GET", made["url"], signed=False)
        assert status == 200
        lines = body.decode("utf-8-sig").splitlines()
        assert any("Bo" in line for line in lines) and any("<Cy & Co>" in line for line in lines)
        assert (await ada.request("GET", made["url"], signed=False))[0] == 410  # replayed

        _, xlsx = await ada.post(make + "?format=xlsx")
        status, book = await ada.request("GET", xlsx["url"], signed=False)
        assert status == 200 and book[:2] == b"PK"

        _, late = await ada.post(make)
        clock.now += 301
        assert (await ada.request("GET", late["url"], signed=False))[0] == 410  # expired


async def test_a_link_altered_or_for_someone_else_is_refused(
    api: FakeBotApi, app_settings: Settings, room: Room, clock: Clock
) -> None:
    async with dashboard(app_settings, clock) as (_, listener):
        await play_a_quiz(api, room)
        ada, bo = Browser(listener, api, ADA, clock), Browser(listener, api, BO, clock)
        session = await played_session(ada)
        make = f"api/chats/{GROUP_ID}/sessions/{session}/link"

        assert (await bo.post(make))[0] == 403  # Bo administers nothing: no link for him
        _, made = await ada.post(make)
        prefix, user, *rest = made["url"].removeprefix("download/").split("_")
        assert (prefix, user) == ("D", "1")  # Ada's id, in base 36
        for forged in (
            "_".join([prefix, "2", *rest]),  # made out to Bo instead
            "_".join([prefix, user, str(session + 1), *rest[1:]]),  # another quiz
            made["url"].removeprefix("download/")[:-1] + "A",  # the signature changed
            "x" * 64,
        ):
            status, _ = await ada.request("GET", f"download/{forged}", signed=False)
            assert status == 403, forged

        _, second = await ada.post(make)
        room.chat.admins.discard(ADA.id)
        clock.now += 61  # the admin status Ada was given is trusted a minute
        assert (await ada.request("GET", second["url"], signed=False))[0] == 403  # demoted
