"""The stand-in refuses what Telegram refuses, so the bot's tests mean something."""

from __future__ import annotations

import time

import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MenuButtonDefault,
    MenuButtonWebApp,
    WebAppInfo,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter

from bot.sandbox import FakeBotApi, FakeUser
from tests.support.images import png


def _keyboard(data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton("go", callback_data=data)]])


async def test_callback_data_over_64_bytes_is_refused(client: Bot, user: FakeUser) -> None:
    await client.send_message(user.id, "ok", reply_markup=_keyboard("x" * 64))
    with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
        await client.send_message(user.id, "no", reply_markup=_keyboard("é" * 33))


async def test_text_over_4096_after_entities_is_refused(client: Bot, user: FakeUser) -> None:
    fits = "<b>" + "&amp;" * 4096 + "</b>"  # 4096 visible characters
    await client.send_message(user.id, fits, parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match="(?i)too long"):
        await client.send_message(user.id, "a" * 4097)
    with pytest.raises(BadRequest, match="(?i)too long"):
        await client.send_message(user.id, "😀" * 2049)  # UTF-16: two units each


@pytest.mark.parametrize("text", ["1 < 2", "<b>open", "a & b", "<script>x</script>", "<b>x</i>"])
async def test_malformed_html_is_refused(client: Bot, user: FakeUser, text: str) -> None:
    with pytest.raises(BadRequest, match="(?i)can't parse entities"):
        await client.send_message(user.id, text, parse_mode=ParseMode.HTML)


async def test_edit_that_changes_nothing_is_refused(client: Bot, user: FakeUser) -> None:
    sent = await client.send_message(user.id, "same", reply_markup=_keyboard("k"))
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await client.edit_message_text(
            "same", user.id, sent.message_id, reply_markup=_keyboard("k")
        )
    await client.edit_message_text("changed", user.id, sent.message_id)


async def test_callback_query_answered_twice_is_refused(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    sent = await client.send_message(user.id, "tap", reply_markup=_keyboard("k"))
    query_id = api.tap(user, api.messages[(user.id, sent.message_id)], "k")
    await client.answer_callback_query(query_id, "first")
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await client.answer_callback_query(query_id, "second")


async def test_blocked_user_is_forbidden(api: FakeBotApi, client: Bot, user: FakeUser) -> None:
    api.block(user)
    with pytest.raises(Forbidden, match="(?i)blocked"):
        await client.send_message(user.id, "hello?")


async def test_group_gets_429_past_20_messages_a_minute(api: FakeBotApi, client: Bot) -> None:
    now = [1000.0]
    api.clock = lambda: now[0]
    group = api.group(-100, "study", admins=set())
    for number in range(20):
        await client.send_message(group.id, f"m{number}")
    with pytest.raises(RetryAfter, match="Retry in 61 seconds"):
        await client.send_message(group.id, "one too many")
    now[0] += 61
    await client.send_message(group.id, "after a minute")


async def test_documents_go_both_ways(user: FakeUser, api: FakeBotApi) -> None:
    base_file_url = api.base_url.replace("/bot", "/file/bot")
    async with Bot(api.token, base_url=api.base_url, base_file_url=base_file_url) as client:
        await _documents_go_both_ways(client, user, api)


async def _documents_go_both_ways(client: Bot, user: FakeUser, api: FakeBotApi) -> None:
    uploaded = api.upload(user, b"id: x\n", "x.yaml", caption="/import")
    assert uploaded.document is not None
    file = await client.get_file(uploaded.document["file_id"])
    assert bytes(await file.download_as_bytearray()) == b"id: x\n"
    assert len(api.downloads) == 1
    with pytest.raises(BadRequest, match="(?i)invalid file_id"):
        await client.get_file("no-such-file")
    sent = await client.send_document(
        user.id, b"a: 1\n", filename="a.yaml", caption="<b>c</b>", parse_mode=ParseMode.HTML
    )
    assert sent.document is not None and sent.document.file_name == "a.yaml"
    kept = api.messages[(user.id, sent.message_id)]
    assert kept.document is not None and api.file_content(kept.document) == b"a: 1\n"
    assert kept.caption == "c"


async def test_a_chat_that_removed_the_bot_refuses_everything(api: FakeBotApi, client: Bot) -> None:
    group = api.group(-101, "study", admins=set(), type="group")
    channel = api.group(-102, "news", admins=set(), type="channel")
    api.kick_bot(group)
    api.kick_bot(channel)
    with pytest.raises(Forbidden, match="^Forbidden: bot was kicked from the group chat$"):
        await client.send_message(group.id, "hello?")
    with pytest.raises(Forbidden, match="kicked from the group chat"):
        await client.get_chat_member(group.id, 1)
    with pytest.raises(Forbidden, match="kicked from the channel chat"):
        await client.send_message(channel.id, "hello?")


async def test_a_chat_without_the_right_to_send_refuses_text_or_polls(
    api: FakeBotApi, client: Bot
) -> None:
    group = api.group(-103, "study", admins=set())
    api.restrict_bot(group, messages=True, polls=False)
    await client.send_message(group.id, "text is fine")
    with pytest.raises(BadRequest, match="^Not enough rights to send polls to the chat$"):
        await client.send_poll(group.id, "?", ["a", "b"])
    api.restrict_bot(group)
    with pytest.raises(BadRequest, match="^Not enough rights to send text messages to the chat$"):
        await client.send_message(group.id, "no more")
    assert (await client.get_chat_member(group.id, 1)).status == "member"  # still in it


async def test_a_gone_chat_is_not_found_and_a_stranger_cannot_be_written_to(
    api: FakeBotApi, client: Bot
) -> None:
    group = api.group(-104, "study", admins=set())
    api.forget_chat(group)
    with pytest.raises(BadRequest, match="^Chat not found$"):
        await client.send_message(group.id, "hello?")
    stranger = FakeUser(77, "Seen in a group only")
    with pytest.raises(BadRequest, match="^Chat not found$"):
        await client.send_message(stranger.id, "who?")  # nobody Telegram knows of
    api.send_text(stranger, "/leaderboard", api.group(-105, "other", admins=set()))
    with pytest.raises(Forbidden, match="can't initiate conversation with a user"):
        await client.send_message(stranger.id, "hi")


async def test_a_callback_query_answered_too_late_is_refused(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    now = [1000.0]
    api.clock = lambda: now[0]
    sent = await client.send_message(user.id, "q", reply_markup=_keyboard("x"))
    message = api.messages[(user.id, sent.message_id)]
    quick = api.tap(user, message, "x")
    late = api.tap(user, message, "x")
    now[0] += 14
    assert await client.answer_callback_query(quick, "in time")
    now[0] += 2
    with pytest.raises(BadRequest) as refused:
        await client.answer_callback_query(late, "too late")
    assert refused.value.message == (
        "Query is too old and response timeout expired or query id is invalid"
    )


async def test_a_proxy_page_instead_of_json_and_connections_refused_for_a_moment(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    api.fail("sendMessage", 502, "Bad Gateway", body="<html><h1>502 Bad Gateway</h1></html>")
    with pytest.raises(NetworkError, match=r"Bad Gateway \(502\)"):
        await client.send_message(user.id, "through a proxy")
    await api.refuse_connections(0.5)
    refused_at = time.monotonic()
    with pytest.raises(NetworkError):
        await client.send_message(user.id, "nobody listens")
    await api.wait_for(lambda: api.listening_again_at)
    assert api.listening_again_at is not None and api.listening_again_at - refused_at >= 0.4
    await client.send_message(user.id, "back")
    assert [m.text for m in api.bot_messages(user.id)] == ["back"]


async def test_url_buttons_are_checked_and_a_start_link_is_pressed_as_telegram_does(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    bad = InlineKeyboardMarkup([[InlineKeyboardButton("go", url="javascript:alert(1)")]])
    with pytest.raises(BadRequest, match="(?i)button_url_invalid"):
        await client.send_message(user.id, "no", reply_markup=bad)
    link = f"https://t.me/{api.bot_user['username']}?start=M_1_abc"
    sent = await client.send_message(
        user.id, "go", reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("go", url=link)]])
    )
    message = api.messages[(user.id, sent.message_id)]
    pressed = api.press_link(user, message)
    assert pressed.text == "/start M_1_abc" and pressed.chat.id == user.id
    with pytest.raises(AssertionError, match="no URL button"):
        api.press_link(user, message, link + "x")
    with pytest.raises(AssertionError, match="not a start link"):
        api.open_link(user, "https://t.me/someone_else_bot?start=M_1_abc")
    # a payload Telegram would not pass on arrives as a bare /start
    assert api.open_link(user, link.replace("M_1_abc", "a" * 65)).text == "/start"
    assert api.open_link(user, link.replace("M_1_abc", "a.b")).text == "/start"


async def test_a_member_list_makes_others_left(api: FakeBotApi, client: Bot) -> None:
    chat = api.group(-1005, "g", admins={1})
    chat.members = {2}
    assert (await client.get_chat_member(chat.id, 1)).status == "administrator"
    assert (await client.get_chat_member(chat.id, 2)).status == "member"
    assert (await client.get_chat_member(chat.id, 3)).status == "left"


async def test_send_photo_takes_a_png_within_telegrams_limits(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    import io

    from PIL import Image

    def png(width: int, height: int) -> bytes:
        buffer = io.BytesIO()
        Image.new("RGB", (width, height), "white").save(buffer, format="PNG")
        return buffer.getvalue()

    sent = await client.send_photo(
        user.id, png(900, 600), caption="<b>alt</b> text", parse_mode=ParseMode.HTML
    )
    message = api.messages[(user.id, sent.message_id)]
    assert message.photo is not None and message.photo[-1]["width"] == 900
    assert message.caption == "alt text"
    assert api.file_content(message.photo[-1]) == png(900, 600)
    with pytest.raises(BadRequest, match="(?i)image_process_failed"):
        await client.send_photo(user.id, b"not an image at all")
    with pytest.raises(BadRequest, match="(?i)photo_invalid_dimensions"):
        await client.send_photo(user.id, png(2100, 100))  # a ratio over 20
    with pytest.raises(BadRequest, match="caption is too long"):
        await client.send_photo(user.id, png(10, 10), caption="x" * 1025)


# --- photos, captions and code (issue 14) ----------------------------------------------------


async def test_photos_by_upload_file_id_and_url(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:

    sent = await client.send_photo(user.id, png(30, 20), caption="<b>a</b>", parse_mode="HTML")
    assert sent.photo and sent.photo[-1].width == 30 and sent.caption == "a"
    again = await client.send_photo(user.id, sent.photo[-1].file_id)
    assert again.photo and len(api.photo_uploads) == 1
    await client.send_photo(user.id, "https://example.org/a.png")
    assert api.photo_urls == ["https://example.org/a.png"]
    with pytest.raises(BadRequest, match="(?i)image_process_failed"):
        await client.send_photo(user.id, b"not a picture")
    api.refuse_file_id(sent.photo[-1].file_id)
    with pytest.raises(BadRequest, match="(?i)wrong file identifier"):
        await client.send_photo(user.id, sent.photo[-1].file_id)
    with pytest.raises(BadRequest, match="(?i)wrong file identifier"):
        await client.send_photo(user.id, "no-such-id")


async def test_captions_are_held_to_1024_after_entities_and_edited_as_captions(
    client: Bot, user: FakeUser
) -> None:

    fits = "<b>" + "&amp;" * 1024 + "</b>"
    sent = await client.send_photo(user.id, png(), caption=fits, parse_mode="HTML")
    with pytest.raises(BadRequest, match="(?i)caption is too long"):
        await client.send_photo(user.id, png(), caption="a" * 1025)
    with pytest.raises(BadRequest, match="(?i)caption is too long"):
        await client.edit_message_caption(user.id, sent.message_id, caption="a" * 1025)
    with pytest.raises(BadRequest, match="(?i)no text in the message"):
        await client.edit_message_text("text", user.id, sent.message_id)
    await client.edit_message_caption(user.id, sent.message_id, caption="new")
    with pytest.raises(BadRequest, match="(?i)not modified"):
        await client.edit_message_caption(user.id, sent.message_id, caption="new")
    text = await client.send_message(user.id, "plain")
    with pytest.raises(BadRequest, match="(?i)no caption"):
        await client.edit_message_caption(user.id, text.message_id, caption="x")


@pytest.mark.parametrize(
    "text",
    [
        '<code class="language-python">x</code>',  # a language only on a <pre> block's code
        "<pre><b>x</b></pre>",
        "<code><i>x</i></code>",
        '<pre>x<code class="language-python">y</code></pre>',
        '<pre><code class="python">x</code></pre>',
    ],
)
async def test_code_takes_no_other_entities(client: Bot, user: FakeUser, text: str) -> None:
    with pytest.raises(BadRequest, match="(?i)can't parse entities"):
        await client.send_message(user.id, text, parse_mode=ParseMode.HTML)


async def test_a_code_block_with_its_language_is_taken(client: Bot, user: FakeUser) -> None:
    sent = await client.send_message(
        user.id,
        'Run:\n<pre><code class="language-python">print(1 &lt; 2)</code></pre> and <code>x</code>',
        parse_mode=ParseMode.HTML,
    )
    assert sent.text == "Run:\nprint(1 < 2) and x"


async def test_a_quiz_poll_keeps_every_right_option_and_refuses_wrong_ids(
    api: FakeBotApi, client: Bot
) -> None:
    group = api.group(-105, "study", admins=set())
    options = ["a", "b", "c", "d"]
    sent = await client.send_poll(
        group.id, "Which?", options, type="quiz", correct_option_ids=[0, 2],
        allows_multiple_answers=True, is_anonymous=False,
    )  # fmt: skip
    assert sent.poll is not None and sent.poll.correct_option_ids == (0, 2)
    assert sent.poll.allows_multiple_answers
    for ids, multiple in (([2, 0], True), ([0, 0], True), ([0, 4], True), ([], True)):
        with pytest.raises(BadRequest, match="(?i)wrong correct option id"):
            await client.send_poll(
                group.id, "?", options, type="quiz", correct_option_ids=ids,
                allows_multiple_answers=multiple,
            )  # fmt: skip
    with pytest.raises(BadRequest, match="allows_multiple_answers"):
        await client.send_poll(group.id, "?", options, type="quiz", correct_option_ids=[0, 1])
    message = api.messages[(group.id, sent.message_id)]
    with pytest.raises(AssertionError, match="one option per vote"):
        single = await client.send_poll(
            group.id, "One?", options, type="quiz", correct_option_ids=[1], is_anonymous=False
        )
        api.vote(FakeUser(5, "Bo"), api.messages[(group.id, single.message_id)], [0, 1])
    api.vote(FakeUser(5, "Bo"), message, [0, 2])
    assert [o["voter_count"] for o in message.poll["options"]] == [1, 0, 1, 0]  # type: ignore[index]


async def test_a_chats_own_menu_is_checked_as_telegram_checks_it(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    scope = BotCommandScopeChat(user.id)
    assert await client.set_my_commands([BotCommand("dashboard", "Classes")], scope=scope)
    assert await client.set_my_commands([BotCommand("dashboard", "Klasi")], scope, "yo")
    assert api.menu(user) == ["dashboard"]
    stranger = BotCommandScopeChat(999)  # never wrote to the bot: no private chat yet
    too_many = [BotCommand(f"c{n}", "x") for n in range(101)]
    for commands, where, refusal in (
        ([BotCommand("dashboard", "x")], stranger, "chat not found"),
        ([BotCommand("Dashboard", "x")], scope, "BOT_COMMAND_INVALID"),
        ([BotCommand("d" * 33, "x")], scope, "BOT_COMMAND_INVALID"),
        ([BotCommand("dashboard", "x" * 257)], scope, "BOT_COMMAND_DESCRIPTION_INVALID"),
        ([BotCommand("dashboard", "")], scope, "BOT_COMMAND_DESCRIPTION_INVALID"),
        (too_many, scope, "BOT_COMMANDS_TOO_MUCH"),
    ):
        with pytest.raises(BadRequest, match=f"(?i){refusal}"):
            await client.set_my_commands(commands, scope=where)
    with pytest.raises(BadRequest, match="(?i)chat not found"):
        await client.delete_my_commands(scope=stranger)
    with pytest.raises(BadRequest, match="(?i)language code"):
        await client.delete_my_commands(scope=scope, language_code="yor")
    assert await client.delete_my_commands(scope=scope)
    assert await client.delete_my_commands(scope=scope, language_code="yo")
    assert api.menu(user) == []


async def test_the_menu_button_opens_an_https_web_app_in_a_private_chat(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    url = "https://quiz.example.org/app/"
    assert await client.set_chat_menu_button(
        user.id, MenuButtonWebApp("Dashboard", WebAppInfo(url))
    )
    assert api.menu_button(user) == {
        "type": "web_app",
        "text": "Dashboard",
        "web_app": {"url": url},
    }
    shown = await client.get_chat_menu_button(user.id)
    assert isinstance(shown, MenuButtonWebApp) and shown.web_app.url == url
    group = api.group(-100, "class", admins={user.id})
    for chat_id, button, refusal in (
        (user.id, MenuButtonWebApp("Dashboard", WebAppInfo("http://x.org/")), "BUTTON_URL_INVALID"),
        (user.id, MenuButtonWebApp("", WebAppInfo(url)), "BUTTON_TEXT_INVALID"),
        (user.id, MenuButtonWebApp("x" * 65, WebAppInfo(url)), "BUTTON_TEXT_INVALID"),
        (999, MenuButtonWebApp("Dashboard", WebAppInfo(url)), "chat not found"),
        (group.id, MenuButtonWebApp("Dashboard", WebAppInfo(url)), "private chat"),
    ):
        with pytest.raises(BadRequest, match=f"(?i){refusal}"):
            await client.set_chat_menu_button(chat_id, button)
    assert api.menu_button(user)["text"] == "Dashboard"  # a refusal changes nothing
    assert await client.set_chat_menu_button(user.id)  # none: Telegram's default again
    assert isinstance(await client.get_chat_menu_button(user.id), MenuButtonDefault)
    assert api.menu_button(user) == {"type": "default"}
