"""Updates parsed into PTB's objects, the message of a tap parsed once for all its taps.

A tap (a callback query) carries the whole message its button is on. When a thousand members
tap one group question, that is one message a thousand times over, and PTB's parsing of a
`Message` (a hundred attributes, each set through `TelegramObject.__setattr__`) was the
largest single cost of a tap: about a sixth of the bot's time in a large group. `UpdateParser`
keeps the last messages it parsed, by chat and message id, with the JSON they came from, and
gives a tap whose message is exactly that JSON the same (frozen) `Message`. A message edited
since (the live count) has other JSON and is parsed again.

Only the shapes this module knows every field of are built here: an update holding nothing
but a callback query, whose fields are Telegram's (`QUERY_FIELDS`), with a message (parsed by
PTB's `Message.de_json`); anything else goes through `Update.de_json`, which keeps unknown
fields in `api_kwargs`.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from telegram import Bot, CallbackQuery, Message, Update, User

QUERY_FIELDS = frozenset(
    {"id", "from", "chat_instance", "message", "data", "inline_message_id", "game_short_name"}
)
REQUIRED_FIELDS = frozenset({"id", "from", "chat_instance"})
MESSAGES_KEPT = 64


class UpdateParser:
    def __init__(self, bot: Bot) -> None:
        self._bot = bot
        self._messages: OrderedDict[tuple[int, int], tuple[dict[str, Any], Message]] = OrderedDict()

    def parse_all(self, updates: list[dict[str, Any]]) -> tuple[Update, ...]:
        return tuple(self.parse(data) for data in updates)

    def parse(self, data: dict[str, Any]) -> Update:
        query = data.get("callback_query")
        if (
            len(data) != 2
            or not isinstance(query, dict)
            or not isinstance(query.get("message"), dict)
            or not isinstance(query.get("from"), dict)
            or not QUERY_FIELDS.issuperset(query)
            or not REQUIRED_FIELDS.issubset(query)
        ):
            return Update.de_json(data, self._bot)
        message = self._message(query["message"])
        tap = CallbackQuery(
            id=query["id"],
            from_user=User.de_json(query["from"], self._bot),
            chat_instance=query["chat_instance"],
            message=message,
            data=query.get("data"),
            inline_message_id=query.get("inline_message_id"),
            game_short_name=query.get("game_short_name"),
        )
        tap.set_bot(self._bot)
        update = Update(update_id=data["update_id"], callback_query=tap)
        update.set_bot(self._bot)
        return update

    def _message(self, data: dict[str, Any]) -> Message:
        """The message parsed as `CallbackQuery.de_json` does, or the one parsed before if its
        JSON is the same."""
        chat = data.get("chat")
        chat_id = chat.get("id") if isinstance(chat, dict) else None
        message_id = data.get("message_id")
        if type(chat_id) is not int or type(message_id) is not int:  # strange: PTB's way alone
            return Message.de_json(data, self._bot)
        key = (chat_id, message_id)
        kept = self._messages.get(key)
        if kept is not None and kept[0] == data:
            self._messages.move_to_end(key)
            return kept[1]
        message = Message.de_json(data, self._bot)
        self._messages[key] = (data, message)
        if len(self._messages) > MESSAGES_KEPT:
            self._messages.popitem(last=False)
        return message
