"""The stand-in's files and polls are as strict as Telegram's: a bot downloads at most 20 MB
and sends at most 50 MB, a file goes as a multipart part with a file name; a poll made in a
private chat needs the bot's poll button, and an open forwarded quiz hides its answer."""

from __future__ import annotations

import aiohttp
import pytest
from telegram import (
    Bot,
    KeyboardButton,
    KeyboardButtonPollType,
    MessageOriginUser,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
)
from telegram.error import BadRequest, NetworkError

from bot.sandbox import FakeBotApi, FakeUser


async def test_get_file_refuses_what_a_bot_may_not_download(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    fits = api.upload(user, b"x" * (20 * 1000 * 1000), "fits.bin")
    assert fits.document is not None
    assert (await client.get_file(fits.document["file_id"])).file_size == 20 * 1000 * 1000
    big = api.upload(user, b"x" * (20 * 1000 * 1000 + 1), "big.bin")
    assert big.document is not None
    with pytest.raises(BadRequest, match="(?i)file is too big"):
        await client.get_file(big.document["file_id"])


async def test_send_document_takes_at_most_50_mb(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    sent = await client.send_document(user.id, b"y" * (50 * 1000 * 1000), filename="ok.bin")
    assert sent.document is not None and sent.document.file_name == "ok.bin"
    with pytest.raises(NetworkError, match="(?i)too large"):
        await client.send_document(user.id, b"y" * (50 * 1000 * 1000 + 1), filename="big.bin")


async def test_a_document_without_a_file_name_is_not_a_file(
    api: FakeBotApi, user: FakeUser
) -> None:
    boundary = "b0und"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="chat_id"\r\n\r\n{user.id}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="document"\r\n'
        f"Content-Type: application/octet-stream\r\n\r\ndata\r\n--{boundary}--\r\n"
    )
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    async with aiohttp.ClientSession() as session:
        url = f"{api.base_url}{api.token}/sendDocument"
        async with session.post(url, data=body.encode(), headers=headers) as response:
            answer = await response.json()
    assert response.status == 400
    assert answer["description"] == "Bad Request: wrong file identifier/HTTP URL specified"


def quiz_button(kind: str = "quiz") -> ReplyKeyboardMarkup:
    button = KeyboardButton("Create", request_poll=KeyboardButtonPollType(kind))
    return ReplyKeyboardMarkup([[button]])


async def test_a_poll_is_made_in_a_private_chat_only_through_the_bots_button(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    with pytest.raises(AssertionError, match="no button"):
        api.send_poll(user, "Q?", ["a", "b"], correct=[0])
    await client.send_message(user.id, "make one", reply_markup=quiz_button())
    with pytest.raises(AssertionError, match="no button for a regular poll"):
        api.send_poll(user, "Q?", ["a", "b"], kind="regular")
    api.send_poll(user, "Which?", ["a", "b", "c"], correct=[0, 2], explanation="Both.")
    await client.send_message(user.id, "done", reply_markup=ReplyKeyboardRemove())
    with pytest.raises(AssertionError, match="no button"):
        api.send_poll(user, "Q?", ["a", "b"], correct=[0])
    (update,) = await client.get_updates()
    assert update.message is not None and update.message.poll is not None
    poll = update.message.poll
    assert poll.type == "quiz" and poll.correct_option_ids == (0, 2)
    assert poll.explanation == "Both." and update.message.forward_origin is None


async def test_an_open_forwarded_quiz_hides_its_answer_a_closed_one_shows_it(
    api: FakeBotApi, client: Bot, user: FakeUser
) -> None:
    author = FakeUser(8, "Author")
    api.send_poll(user, "Open?", ["a", "b"], correct=[1], forwarded_from=author)
    api.send_poll(user, "Closed?", ["a", "b"], correct=[1], forwarded_from=author, closed=True)
    opened, closed = [u.message for u in await client.get_updates()]
    assert opened is not None and opened.poll is not None and closed is not None
    assert isinstance(opened.forward_origin, MessageOriginUser)
    assert opened.forward_origin.sender_user.id == author.id
    assert not opened.poll.correct_option_ids and not opened.poll.is_closed
    assert closed.poll is not None and closed.poll.correct_option_ids == (1,)
