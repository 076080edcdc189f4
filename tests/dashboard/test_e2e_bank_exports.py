"""A bank's files from the dashboard, end to end, for the bot's admins only (as `/export` is):
sent into the admin's private chat or downloaded once from a link signed for them, the same
bytes `/export` sends; anyone else refused even when they craft the request."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace

import pytest

from bot.config import Settings
from bot.sandbox import FakeBotApi
from bot.sandbox.server import Message
from tests.support.dashboard import Browser, Clock, dashboard
from tests.support.room import ADA, BO, GROUP_ID, Room

FORMATS = ("yaml", "gift", "xml", "csv", "xlsx", "apkg")  # what /export offers


@pytest.fixture
def admin_settings(app_settings: Settings) -> Settings:
    """Ada is a bot admin (`QUIZ_ADMIN_IDS`); Bo is not, though he has a private chat."""
    return replace(app_settings, admin_ids=frozenset({ADA.id}))


def members(data: bytes, but: tuple[str, ...] = ()) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name not in but}


def same_file(ours: bytes, exports: bytes, form: str) -> bool:
    """The same file: byte for byte, but where the writer stamps the time it wrote (Excel's
    properties, every zip's member times; an Anki package's collection holds its own)."""
    if form == "xlsx":
        return members(ours, but=("docProps/core.xml",)) == members(
            exports, but=("docProps/core.xml",)
        )
    if form == "apkg":
        return members(ours).keys() == members(exports).keys()
    return ours == exports


def documents(api: FakeBotApi, chat_id: int) -> list[Message]:
    return [m for m in api.bot_messages(chat_id) if m.document]


async def exported(api: FakeBotApi, command: str) -> bytes:
    """What `/export` sends Ada for `command`."""
    private = api.private_chat(ADA)
    seen = len(documents(api, private.id))
    api.send_text(ADA, command, private)
    sent = await api.wait_for(lambda: documents(api, private.id)[seen:])
    assert sent[0].document is not None
    return api.file_content(sent[0].document)


async def test_a_bot_admin_downloads_each_format_once_and_gets_export_s_own_bytes(
    api: FakeBotApi, admin_settings: Settings, clock: Clock
) -> None:
    async with dashboard(admin_settings, clock) as (_, listener):
        ada = Browser(listener, api, ADA, clock)
        status, me = await ada.get("api/me")
        assert status == 200 and me["bank_formats"] == list(FORMATS)

        for form in FORMATS:
            status, made = await ada.post(f"api/banks/link?quiz=tiny&format={form}")
            assert status == 200 and made["expires"] == int(clock.now) + 300
            assert made["url"].startswith("download/B_")
            status, body = await ada.request("GET", made["url"], signed=False)
            assert status == 200, form
            assert same_file(body, await exported(api, f"/export tiny {form}"), form), form
            assert (await ada.request("GET", made["url"], signed=False))[0] == 410  # replayed

        _, late = await ada.post("api/banks/link?quiz=tiny&format=gift")
        clock.now += 301
        assert (await ada.request("GET", late["url"], signed=False))[0] == 410  # expired


async def test_send_to_my_chat_sends_what_export_sends(
    api: FakeBotApi, admin_settings: Settings, clock: Clock
) -> None:
    async with dashboard(admin_settings, clock) as (_, listener):
        ada = Browser(listener, api, ADA, clock)
        send = "api/banks/send?quiz=tiny&format=xml"
        assert await ada.post(send) == (409, {"error": "start_first"})  # no private chat yet
        private = api.private_chat(ADA)
        assert await ada.post(send) == (200, {"sent": True})
        sent = await api.wait_for(lambda: documents(api, private.id))
        assert sent[0].document is not None and sent[0].document["file_name"] == "tiny.xml"
        assert api.file_content(sent[0].document) == await exported(api, "/export tiny xml")

        assert (await ada.get(send))[0] == 405  # sending is a POST
        assert (await ada.post("api/banks/send?quiz=tiny&format=pdf"))[0] == 400
        assert (await ada.post("api/banks/send?quiz=nosuch&format=xml"))[0] == 404
        assert (await ada.post("api/banks/link?format=xml"))[0] == 404


async def test_anyone_not_a_bot_admin_is_refused_even_a_chat_admin_with_a_crafted_request(
    api: FakeBotApi, app_settings: Settings, room: Room, clock: Clock
) -> None:
    async with dashboard(app_settings, clock) as (_, listener):  # no bot admin at all
        api.private_chat(ADA)
        ada = Browser(listener, api, ADA, clock)  # she administers the group
        assert (await ada.get(f"api/chats/{GROUP_ID}"))[0] == 200
        status, me = await ada.get("api/me")
        assert status == 200 and me["bank_formats"] == []  # not offered
        for action in ("send", "link"):
            for form in ("gift", "xml"):
                status, body = await ada.post(f"api/banks/{action}?quiz=tiny&format={form}")
                assert (status, body) == (403, {"error": "forbidden"})
        assert documents(api, ADA.id) == []


async def test_a_bank_link_altered_or_made_out_to_someone_else_is_refused(
    api: FakeBotApi, admin_settings: Settings, clock: Clock
) -> None:
    async with dashboard(admin_settings, clock) as (_, listener):
        ada, bo = Browser(listener, api, ADA, clock), Browser(listener, api, BO, clock)
        assert (await bo.post("api/banks/link?quiz=tiny&format=gift"))[0] == 403
        _, made = await ada.post("api/banks/link?quiz=tiny&format=gift")
        prefix, user, *rest = made["url"].removeprefix("download/").split("_")
        assert (prefix, user) == ("B", "1")  # Ada's id, in base 36
        for forged in (
            "_".join([prefix, "2", *rest]),  # made out to Bo instead
            "_".join(["D", user, *rest]),  # passed off as a report's link
            made["url"].removeprefix("download/")[:-1] + "A",  # the signature changed
        ):
            status, _ = await bo.request("GET", f"download/{forged}", signed=False)
            assert status == 403, forged
        assert (await ada.request("GET", made["url"], signed=False))[0] == 200  # still good
