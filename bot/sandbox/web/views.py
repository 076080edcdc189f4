"""What the page is told about a message: JSON with the text as a tree of nodes (markup.py)."""

from __future__ import annotations

from typing import Any

from bot.sandbox.server import Message
from bot.sandbox.web.cast import Cast
from bot.sandbox.web.markup import html_tree, text_tree

IMAGE_TYPES = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"GIF87a": "image/gif",
    b"GIF89a": "image/gif",
}


def image_type(content: bytes) -> str | None:
    """The type of a PNG, JPEG or GIF file from its first bytes (WebP too); else None."""
    for magic, kind in IMAGE_TYPES.items():
        if content.startswith(magic):
            return kind
    if content[:4] == b"RIFF" and content[8:12] == b"WEBP":
        return "image/webp"
    return None


def fingerprint(message: Message) -> tuple[Any, ...]:
    """Changes whenever what the page shows of the message changes (an edit, a vote)."""
    poll = message.poll or {}
    return (message.edits, poll.get("total_voter_count"), poll.get("is_closed"))


def message_view(
    message: Message, cast: Cast, votes: dict[str, dict[str, list[int]]]
) -> dict[str, Any]:
    sender = None if message.from_bot else cast.by_id(int((message.sender or {}).get("id", 0)))
    if message.from_bot:
        # the HTML as sent equals the text shown only when it has no tag and no entity:
        # plain text, whatever the parse mode was
        text = text_tree(message.text) if message.html == message.text else html_tree(message.html)
    else:
        text = text_tree(message.text)
    view: dict[str, Any] = {
        "chat_id": message.chat.id,
        "message_id": message.message_id,
        "date": message.date,
        "from": "bot" if message.from_bot else (sender.key if sender else None),
        "from_name": "Quiz Tutor" if message.from_bot else _name(message, sender),
        "text": text,
        "caption": text_tree(message.caption),
        "buttons": _buttons(message),
        "edited": message.edits > 0,
    }
    if message.reply_to is not None:
        view["reply_to"] = message.reply_to.message_id
    if message.chat_shared is not None:
        view["chat_shared"] = message.chat_shared
    markup = message.reply_markup or {}
    if message.from_bot and "keyboard" in markup:
        view["reply_keyboard"] = _reply_keyboard(markup)
    elif message.from_bot and markup.get("remove_keyboard"):
        view["remove_keyboard"] = True
    if message.document:
        view["document"] = {
            "file_id": message.document["file_id"],
            "file_name": message.document.get("file_name") or "document",
            "size": message.document.get("file_size"),
        }
    photo = getattr(message, "photo", None)  # sendPhoto, where the stand-in keeps one
    if photo:
        view["photo"] = {"file_id": photo[-1]["file_id"]}
    if message.poll:
        view["poll"] = _poll(message.poll, votes.get(message.poll["id"], {}))
    return view


def _name(message: Message, sender: Any) -> str:
    if sender is not None:
        return str(sender.user.first_name)
    return str((message.sender or {}).get("first_name") or "someone")


def _buttons(message: Message) -> list[list[dict[str, str]]]:
    rows = (message.reply_markup or {}).get("inline_keyboard") or []
    drawn = []
    for row in rows:
        drawn.append(
            [
                {
                    "text": str(button.get("text", "")),
                    **({"data": button["callback_data"]} if "callback_data" in button else {}),
                    **({"url": button["url"]} if "url" in button else {}),
                    **({"web_app": button["web_app"]["url"]} if _web_app(button) else {}),
                }
                for button in row
            ]
        )
    return drawn


def _web_app(button: dict[str, Any]) -> bool:
    web_app = button.get("web_app")
    return isinstance(web_app, dict) and isinstance(web_app.get("url"), str)


def web_app_urls(message: Message) -> set[str]:
    """The Mini App addresses of the message's inline buttons."""
    rows = (message.reply_markup or {}).get("inline_keyboard") or []
    return {button["web_app"]["url"] for row in rows for button in row if _web_app(button)}


def _reply_keyboard(markup: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """A reply keyboard as the page draws it under the message field: a button's text, and
    for a chat-picking button its request id and whether it asks for a channel."""
    rows = []
    for row in markup.get("keyboard", []):
        drawn = []
        for button in row:
            shown = {"text": button} if isinstance(button, str) else {"text": button["text"]}
            request = button.get("request_chat") if isinstance(button, dict) else None
            if request is not None:
                shown["request_id"] = request["request_id"]
                shown["channel"] = request["chat_is_channel"]
            drawn.append(shown)
        rows.append(drawn)
    return rows


def _poll(poll: dict[str, Any], votes: dict[str, list[int]]) -> dict[str, Any]:
    """A poll as the page shows it; which option is right is for the page to reveal to those
    who voted (and to all once it is closed), as Telegram does."""
    return {
        "question": poll["question"],
        "options": [{"text": o["text"], "voters": o["voter_count"]} for o in poll["options"]],
        "total": poll["total_voter_count"],
        "closed": poll["is_closed"],
        "type": poll["type"],
        "anonymous": poll["is_anonymous"],
        "correct": list(poll.get("correct_option_ids") or []),
        "multiple": bool(poll.get("allows_multiple_answers")),
        "explanation": poll.get("explanation"),
        "votes": votes,
    }
