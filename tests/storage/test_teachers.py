"""Who teaches, as storage knows it (storage/chat_store.py): the admins of the chats the bot is
in, learned from getChatAdministrators, chat_member updates and admins seen in their chat; a
chat the bot left teaches nobody."""

from __future__ import annotations

from storage import Storage

T0 = 1_700_000_000.0
GROUP, CHANNEL = -1001, -1002
TAYO, KEMI, BISI = 11, 12, 13


async def test_the_admins_of_the_chats_the_bot_is_in_teach(storage: Storage) -> None:
    chats = storage.chats
    await chats.note_chat(GROUP, "supergroup", "class", "member", T0)
    await chats.set_admins(GROUP, {TAYO, KEMI}, T0)
    await storage.learners.touch_user(TAYO, "Tayo", "en", T0)  # wrote to the bot in private
    assert await chats.teachers() == {TAYO: True, KEMI: False}
    assert await chats.administers_any(TAYO) and not await chats.administers_any(BISI)

    await storage.learners.set_active(TAYO, False, T0)  # blocked the bot since
    assert await chats.teachers() == {TAYO: False, KEMI: False}
    await chats.note_admin(GROUP, KEMI, False)  # demoted
    assert set(await chats.teachers()) == {TAYO}

    await chats.note_chat(GROUP, "supergroup", "", "kicked", T0 + 1)  # the bot removed
    assert await chats.teachers() == {} and not await chats.administers_any(TAYO)


async def test_an_admin_seen_in_their_chat_teaches_from_then_on(storage: Storage) -> None:
    chats = storage.chats
    assert await chats.note_admin_seen(CHANNEL, "channel", "news", BISI, T0)  # new: say so
    assert not await chats.note_admin_seen(CHANNEL, "channel", "news", BISI, T0 + 1)
    assert await chats.administers_any(BISI)
    known = await chats.known_chat(CHANNEL)
    assert known is not None and known.title == "news" and known.type == "channel"
    # a chat the bot had left and now hears from again: present again
    await chats.note_chat(CHANNEL, "channel", "", "left", T0 + 2)
    assert not await chats.administers_any(BISI)
    assert await chats.note_admin_seen(CHANNEL, "channel", "news", BISI, T0 + 3)
    assert await chats.teachers() == {BISI: False}
