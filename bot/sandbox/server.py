"""A local stand-in for the Telegram Bot API server: what the tests and the benchmark run the
bot against (and, in a later issue, the product's sandbox).

It speaks the Bot API over real HTTP on 127.0.0.1 (PTB's `base_url` points at it), keeps
chats and messages, hands out updates through long polling, and refuses what Telegram
refuses: callback data over 64 bytes, text over 4096 characters after entity parsing,
malformed HTML, edits that change nothing, a callback query answered twice or too late,
deleting a message that is not there (or a member's message in a group),
messages to people who blocked the bot or never started it, to a
chat that kicked the bot (`kick_bot`), that does not let it send (`restrict_bot`) or that does
not exist (`forget_chat`), and more than 20 messages a minute into one group (429). Those
limits are one settings object, `Strictness` (Telegram's by default): a benchmark may lift the
flood limit or the age of a tap, the tests keep them.

Tests drive it as the people in the chats: `send_text`, `upload`, `tap`, then `wait_for` a
condition. Files go both ways: `upload` makes a document the bot can fetch with `getFile` and
download from `/file/bot<token>/<file_path>` (getFile refuses files over 20 MB, as Telegram
does); `sendDocument` (multipart, a file name, at most 50 MB) keeps what the bot sent. People
send polls with `send_poll`: one made in the private chat needs the bot's reply keyboard to
offer a poll button of its kind; a forwarded one carries `forward_origin`, and an open
forwarded quiz leaves out its right options, as Telegram does. Photos: `sendPhoto` takes an
upload (multipart; the stand-in opens it as an image, as Telegram does; at most 10 MB, width
plus height at most 10,000, a ratio of at most 20), a `file_id` it gave out, or an https URL (never fetched: `photo_urls` lists them), and
answers with photo sizes; `refuse_file_id` makes a given id "wrong" from then on (another bot's
id, or one Telegram forgot). Captions are held to 1,024 characters after entity parsing, and
`editMessageCaption` edits them; `editMessageText` refuses a message that has no text, as
Telegram does. `edit_text` is a person editing a message they sent (an `edited_message`).
Menus: `setMyCommands` and `deleteMyCommands` check scopes, names and descriptions as Telegram
does (a chat's own list needs a chat the bot knows), `menu(user, chat)` is what a person is
shown; `setChatMenuButton` takes a private chat's button (a `web_app` one with a text of 1-64
characters and an https URL), `menu_button(user)` is the one shown. `add_bot` adds the bot to
a chat (my_chat_member); `promote` and `demote` change a chat's admins (chat_member, sent to a
bot that administers the chat).

Tests inject trouble: `fail(method, status, ...)` makes the next calls of a method fail (500,
502, 429 with retry_after...); `delay(method, seconds, ...)` makes the next calls of a method (or
of any method) wait before the stand-in answers, as a slow Telegram does, so the bot's request
times out. A held call is then carried out all the same, as a call that timed out may have taken
effect; with `lost=True` it is not. `delayed` lists the holds begun; a call answered after the
bot stopped waiting is recorded with `abandoned=True`. `fail(..., body=...)` answers with a
page that is not JSON, as a proxy in front of Telegram does; `refuse_connections(seconds)` stops
listening for a while, so a new connection is refused as by a server that is restarting.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import os
import re
import socket
import time
from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import BodyPartReader, ClientError, ClientSession, TCPConnector, web
from aiohttp.typedefs import Handler
from PIL import Image as PILImage

from bot.sandbox.html_check import EntityParseError, telegram_length, visible_text
from bot.sandbox.web_app import web_app_button_problem


@dataclass(frozen=True)
class Strictness:
    """How closely the stand-in holds the bot to Telegram's limits. The defaults are Telegram's
    (`TELEGRAM`); a benchmark measuring the code may lift some (`None`: no such limit)."""

    group_messages_per_minute: int | None = 20  # messages and edits into one group (429)
    max_text: int = 4096  # characters of a message after entity parsing, in UTF-16 units
    max_caption: int = 1024  # the same, for a document's caption
    max_callback_data: int = 64  # bytes of a button's callback data
    max_callback_answer: int = 200  # characters of a toast
    callback_query_max_age: float | None = 15.0  # seconds: a tap older is "query is too old"
    max_upload: int = 50 * 1000 * 1000  # bytes of a file a bot sends (sendDocument)
    max_download: int = 20 * 1000 * 1000  # bytes of a file a bot may fetch with getFile
    # Telegram's test environment takes http:// Mini App URLs (the sandbox's app is served on
    # 127.0.0.1, without TLS); production takes https:// only
    http_web_apps: bool = False


TELEGRAM = Strictness()
# what the stand-in pretends Telegram fetched for a photo sent by URL: a 1x1 PNG
_URL_PHOTO = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360f80f0000010100005a4d6f8e0000000049454e44ae426082"
)
# setMyCommands: Telegram's rules for a menu, and the fields each scope type needs
COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")
MAX_BOT_COMMANDS = 100
MENU_SCOPES: dict[str, tuple[str, ...]] = {
    "default": (),
    "all_private_chats": (),
    "all_group_chats": (),
    "all_chat_administrators": (),
    "chat": ("chat_id",),
    "chat_administrators": ("chat_id",),
    "chat_member": ("chat_id", "user_id"),
}
STALE_QUERY = "Bad Request: query is too old and response timeout expired or query id is invalid"

T = TypeVar("T")
# who Telegram says sent a group message of an anonymous admin
ANONYMOUS_ADMIN = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        description: str,
        retry_after: int | None = None,
        body: str | None = None,
        migrate_to: int | None = None,
    ) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.retry_after = retry_after
        self.body = body  # a page that is not Bot API JSON (a proxy's), sent as it is
        self.migrate_to = migrate_to  # the supergroup a group became (`parameters`)


@dataclass(frozen=True)
class FakeUser:
    id: int
    first_name: str
    language_code: str | None = "en"
    username: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "is_bot": False,
            "first_name": self.first_name,
            **_present(language_code=self.language_code, username=self.username),
        }


@dataclass
class Chat:
    id: int
    type: str
    title: str | None = None
    first_name: str | None = None
    admins: set[int] = field(default_factory=set)
    blocked: bool = False  # a private chat: the person blocked the bot
    kicked: bool = False  # a group or channel: the bot was removed from it
    can_send_messages: bool = True  # the bot's rights in a group or channel
    can_send_polls: bool = True
    members: set[int] | None = None  # a group's members besides its admins; None: everyone
    topics: set[int] | None = None  # a forum's topics (their thread ids); None: not a forum
    # the bot's rights as an administrator (`can_post_messages`, ...); None: not an admin of a
    # group, and in a channel (where a bot is always one) the right to post if it may send
    bot_rights: set[str] | None = None
    username: str | None = None  # a public chat's @name
    creator: int | None = None  # who created it (`chat_is_created`)
    migrated_to: int | None = None  # a group upgraded to a supergroup: the supergroup's id

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            **_present(
                title=self.title, first_name=self.first_name, is_forum=self.topics is not None
            ),
        }


@dataclass
class Message:
    chat: Chat
    message_id: int
    from_bot: bool
    text: str
    html: str
    reply_markup: dict[str, Any] | None
    date: int
    sender: dict[str, Any] | None = None
    document: dict[str, Any] | None = None
    caption: str | None = None
    reply_to: Message | None = None
    poll: dict[str, Any] | None = None
    sender_chat: dict[str, Any] | None = None
    forward_origin: dict[str, Any] | None = None
    photo: list[dict[str, Any]] | None = None  # photo sizes, the largest last
    caption_html: str | None = None  # the caption as sent (the bot's HTML)
    thread_id: int | None = None  # the forum topic it is in (None: General, or no forum)
    chat_shared: dict[str, Any] | None = None  # a chat picked with a KeyboardButtonRequestChat
    edits: int = 0

    @property
    def shown(self) -> str:
        """What a person reads: the text, or a photo's or a document's caption."""
        return self.text or self.caption or ""

    @property
    def buttons(self) -> list[dict[str, Any]]:
        if not self.reply_markup:
            return []
        return [b for row in self.reply_markup.get("inline_keyboard", []) for b in row]

    def button_data(self) -> list[str]:
        return [b["callback_data"] for b in self.buttons if "callback_data" in b]

    def to_dict(self, bot_user: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_dict(),
        }
        if self.chat.type != "channel":
            data["from"] = bot_user if self.from_bot else self.sender
        data.update(
            _present(
                text=self.text,
                # a message shows only an inline keyboard; a reply keyboard sits in the chat
                reply_markup=self.reply_markup
                if "inline_keyboard" in (self.reply_markup or {})
                else None,
                document=self.document,
                caption=self.caption,
                poll=self.poll,
                forward_origin=self.forward_origin,
                photo=self.photo,
                chat_shared=self.chat_shared,
            )
        )
        if not self.from_bot:  # what a person sends: a leading /command is marked, as Telegram does
            data.update(
                _present(entities=_command(self.text), caption_entities=_command(self.caption))
            )
        if self.thread_id is not None:
            data.update(message_thread_id=self.thread_id, is_topic_message=True)
        if self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_dict(bot_user)
        if self.sender_chat:
            data["sender_chat"] = self.sender_chat
        elif self.from_bot and self.chat.type == "channel":
            data["sender_chat"] = self.chat.to_dict()  # a channel's posts are signed by it
        return data


def _present(**fields: Any) -> dict[str, Any]:
    """The fields that have a value (Telegram leaves the others out)."""
    return {name: value for name, value in fields.items() if value}


def _command(text: str | None) -> list[dict[str, Any]] | None:
    """The entity of a leading /command."""
    if not text or not text.startswith("/"):
        return None
    return [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    ok: bool
    description: str = ""
    abandoned: bool = False  # the bot had stopped waiting (timed out) when the answer went out
    port: int | None = None  # the caller's side of the connection (which process made the call)


class FakeBotApi:
    def __init__(
        self,
        token: str = "123456:TEST-TOKEN",
        username: str = "quiz_tutor_bot",
        strictness: Strictness = TELEGRAM,
    ) -> None:
        self.token = token
        self.strictness = strictness
        self.bot_user = {
            "id": int(token.split(":")[0]),
            "is_bot": True,
            "first_name": "Quiz Tutor",
            "username": username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }
        self.chats: dict[int, Chat] = {}
        self.messages: dict[tuple[int, int], Message] = {}
        self.calls: list[Call] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.menu_buttons = {}
        self.callback_answers: dict[str, dict[str, Any]] = {}
        self.files: dict[str, tuple[str, bytes]] = {}  # file_id -> (file_path, content)
        self.downloads: list[str] = []  # file_paths the bot downloaded
        self.download_sent: dict[str, int] = {}  # file_path -> bytes sent before the bot hung up
        self._unannounced: set[str] = set()  # file_ids whose size getFile leaves out
        self.refused_file_ids: set[str] = set()  # "wrong file identifier" from now on
        self.photo_uploads: list[bytes] = []  # every photo file the bot uploaded, in order
        self.photo_urls: list[str] = []  # every photo the bot sent as a URL
        self._file_ids = itertools.count(1)
        self._open_queries: dict[str, float] = {}  # query id -> when it was tapped (clock)
        self._seen_users: set[int] = set()  # people who wrote or tapped anywhere
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count[int]] = defaultdict(lambda: itertools.count(1))
        self._query_ids = itertools.count(1)
        self._faults: deque[tuple[str, ApiError]] = deque()
        self._delays: deque[tuple[str | None, float, bool]] = deque()
        self.delayed: list[str] = []  # methods of the calls held by `delay`, as each hold began
        self._group_sends: dict[int, deque[float]] = defaultdict(deque)
        self._poll_voters: dict[str, set[int]] = {}
        self._poll_closes: dict[str, tuple[float, Message]] = {}  # poll id -> when it closes
        self._poll_ids = itertools.count(5000)
        self.keyboards: dict[int, dict[str, Any]] = {}  # chat id -> the reply keyboard shown
        # hooks for load generators that cannot afford a predicate per call
        self.on_bot_message: Callable[[Message], None] | None = None
        self.on_callback_answer: Callable[[str], None] | None = None
        self.on_stale_callback: Callable[[str], None] | None = None  # refused as too old
        # True: once the bot calls setWebhook, updates are POSTed to its URL as Telegram does
        # (`_WebhookDelivery`), not kept for getUpdates
        self.deliver_webhooks = False
        self._delivery: _WebhookDelivery | None = None
        self.clock: Callable[[], float] = time.monotonic
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self.port = 0
        self.listening_again_at: float | None = None  # time.monotonic() of the last reopening
        self._reopening: asyncio.Task[None] | None = None
        self._serving: set[asyncio.BaseTransport | None] = set()  # connections mid-request

    # lifecycle

    async def start(self, port: int = 0) -> None:
        """Serve on 127.0.0.1 at `port` (0: any free port, read `port` after)."""
        app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self._track])
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._site = site

    @web.middleware
    async def _track(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Which connections have a request in progress (`refuse_connections` spares them)."""
        self._serving.add(request.transport)
        try:
            return await handler(request)
        finally:
            self._serving.discard(request.transport)

    async def refuse_connections(self, seconds: float) -> None:
        """Stop listening for `seconds`: a new connection is refused (ECONNREFUSED), as by a
        Bot API server that is restarting. Idle keep-alive connections are closed so that the
        bot's next request must connect; a request in progress (the long poll) goes on."""
        assert self._runner is not None and self._site is not None
        await self._site.stop()
        self._site = None
        server = self._runner.server
        assert server is not None
        for connection in server.connections:
            if connection.transport not in self._serving:
                connection.force_close()

        async def listen_again() -> None:
            await asyncio.sleep(seconds)  # the outage, not a test waiting
            assert self._runner is not None
            site = web.TCPSite(self._runner, "127.0.0.1", self.port)
            await site.start()
            self._site = site
            self.listening_again_at = time.monotonic()
            self._notify()

        self._reopening = asyncio.get_running_loop().create_task(listen_again())

    async def stop(self) -> None:
        if self._reopening is not None:
            self._reopening.cancel()
        if self._delivery is not None:
            await self._delivery.stop()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    # driving: what people do

    def bot_environment(self, db_path: Path, **overrides: str) -> dict[str, str]:
        """The environment of `python -m bot` pointed at this stand-in, with a database of its
        own: this process's environment without its TELEGRAM_ and QUIZ_ settings."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "QUIZ_"))}
        env.update(
            TELEGRAM_BOT_TOKEN=self.token,
            TELEGRAM_API_BASE_URL=self.base_url,
            QUIZ_DB_PATH=str(db_path),
            QUIZ_POLL_TIMEOUT="1",
            NO_PROXY="127.0.0.1,localhost",
            PYTHONUNBUFFERED="1",
        )
        env.update(overrides)
        return env

    def private_chat(self, user: FakeUser) -> Chat:
        return self.chats.setdefault(
            user.id, Chat(id=user.id, type="private", first_name=user.first_name)
        )

    def group(self, chat_id: int, title: str, admins: set[int], type: str = "supergroup") -> Chat:
        chat = Chat(id=chat_id, type=type, title=title, admins=set(admins))
        self.chats[chat_id] = chat
        return chat

    def send_text(
        self,
        user: FakeUser,
        text: str,
        chat: Chat | None = None,
        reply_to: Message | None = None,
        topic: int | None = None,
    ) -> Message:
        """`user` sends `text` (a command if it starts with '/') into `chat` (default: private),
        in forum topic `topic` if given."""
        chat = chat or self.private_chat(user)
        if topic is not None and (chat.topics is None or topic not in chat.topics):
            raise AssertionError(f"chat {chat.id} has no topic {topic}")
        self._seen_users.add(user.id)
        message = self._new_message(
            chat, text=text, sender=user.to_dict(), reply_to=reply_to, thread_id=topic
        )
        self._push({"message": message.to_dict(self.bot_user)})
        return message

    def send_anonymously(self, chat: Chat, text: str) -> Message:
        """An anonymous admin sends `text` into a group: Telegram signs it with the group
        itself (`sender_chat`) and names GroupAnonymousBot as its sender."""
        message = self._new_message(
            chat, text=text, sender=ANONYMOUS_ADMIN, sender_chat=chat.to_dict()
        )
        self._push({"message": message.to_dict(self.bot_user)})
        return message

    def create_topic(self, chat: Chat, name: str) -> int:
        """A new topic in a forum supergroup (the chat becomes one): its thread id, which is
        the id of the message that created it, as in Telegram."""
        if chat.topics is None:
            chat.topics = set()
        created = self._new_message(chat, from_bot=False, text="", sender=None)
        created.text = f"topic created: {name}"
        chat.topics.add(created.message_id)
        return created.message_id

    def in_topic(self, chat_id: int, topic: int | None) -> list[Message]:
        """The bot's messages in one topic of a forum (None: General)."""
        return [m for m in self.bot_messages(chat_id) if m.thread_id == topic]

    def _thread(self, chat: Chat, params: dict[str, Any]) -> int | None:
        raw = params.get("message_thread_id")
        if raw is None:
            return None
        thread = int(raw)
        if chat.topics is None or thread not in chat.topics:
            raise ApiError(400, "Bad Request: message thread not found")
        return thread

    def edit_text(self, user: FakeUser, message: Message, text: str) -> None:
        """`user` edits a message they sent: Telegram sends an `edited_message`."""
        if message.from_bot or message.sender is None or message.sender["id"] != user.id:
            raise AssertionError("a person edits only their own messages")
        message.text = message.html = text
        message.edits += 1
        edited = message.to_dict(self.bot_user)
        edited["edit_date"] = int(time.time())
        self._push({"edited_message": edited})

    def refuse_file_id(self, file_id: str) -> None:
        """From now on `file_id` is refused ("wrong file identifier"), as Telegram refuses an
        id it gave another bot, or one it no longer knows."""
        self.refused_file_ids.add(file_id)

    def add_file(self, content: bytes, file_name: str) -> dict[str, Any]:
        """Keep a file the bot can fetch; returns its `document` object."""
        number = next(self._file_ids)
        file_id = f"file-{number}"
        self.files[file_id] = (f"documents/file_{number}_{file_name}", bytes(content))
        return {
            "file_id": file_id,
            "file_unique_id": f"unique-{number}",
            "file_name": file_name,
            "mime_type": "application/x-yaml",
            "file_size": len(content),
        }

    def upload(
        self,
        user: FakeUser,
        content: bytes,
        file_name: str,
        caption: str | None = None,
        chat: Chat | None = None,
        declared_size: int | None = None,
        sizes_announced: bool = True,
    ) -> Message:
        """`user` sends a document (with an optional caption); `declared_size` overrides the
        `file_size` Telegram announces (as a client may leave it out or get it wrong);
        `sizes_announced=False` leaves it out of the message and of getFile's answer (both are
        optional in the Bot API)."""
        chat = chat or self.private_chat(user)
        document = self.add_file(content, file_name)
        if declared_size is not None:
            document["file_size"] = declared_size
        if not sizes_announced:
            del document["file_size"]
            self._unannounced.add(document["file_id"])
        message = self._new_message(chat, sender=user.to_dict(), document=document, caption=caption)
        self._push({"message": message.to_dict(self.bot_user)})
        return message

    def send_poll(
        self,
        user: FakeUser,
        question: str,
        options: list[str],
        correct: list[int] | None = None,
        explanation: str | None = None,
        kind: str = "quiz",
        forwarded_from: FakeUser | Chat | None = None,
        closed: bool = False,
    ) -> Message:
        """`user` sends a poll into the private chat with the bot. Made there (not forwarded),
        it needs the bot's reply keyboard to offer a poll button of its kind, as Telegram's
        apps do, and it carries its right options and explanation. A forwarded poll comes
        with `forward_origin`; an open forwarded quiz does not show its right options."""
        chat = self.private_chat(user)
        if forwarded_from is None and not self._offers_poll(chat, kind):
            raise AssertionError(f"no button for a {kind} poll in the chat: cannot create one")
        if kind == "quiz" and not correct:
            raise AssertionError("a quiz poll has at least one right option")
        poll: dict[str, Any] = {
            "id": str(next(self._poll_ids)),
            "question": question,
            "options": [
                {"text": t, "voter_count": 0, "persistent_id": str(n)}
                for n, t in enumerate(options)
            ],
            "total_voter_count": 0,
            "is_closed": closed,
            "is_anonymous": True,
            "type": kind,
            "allows_multiple_answers": kind == "quiz" and len(correct or []) > 1,
            "allows_revoting": False,
            "members_only": False,
        }
        if kind == "quiz" and (forwarded_from is None or closed):
            poll["correct_option_ids"] = list(correct or [])
        if explanation:
            poll["explanation"] = explanation
        origin: dict[str, Any] | None = None
        if isinstance(forwarded_from, FakeUser):
            origin = {"type": "user", "sender_user": forwarded_from.to_dict()}
        elif isinstance(forwarded_from, Chat):
            kind_of_origin = "channel" if forwarded_from.type == "channel" else "chat"
            key = "chat" if kind_of_origin == "channel" else "sender_chat"
            origin = {"type": kind_of_origin, key: forwarded_from.to_dict()}
            if kind_of_origin == "channel":
                origin["message_id"] = 1
        if origin is not None:
            origin["date"] = int(time.time()) - 60
        self._seen_users.add(user.id)
        message = self._new_message(chat, sender=user.to_dict(), poll=poll, forward_origin=origin)
        self._push({"message": message.to_dict(self.bot_user)})
        return message

    def _offers_poll(self, chat: Chat, kind: str) -> bool:
        keyboard = self.keyboards.get(chat.id) or {}
        for row in keyboard.get("keyboard", []):
            for button in row:
                wanted = button.get("request_poll") if isinstance(button, dict) else None
                if wanted is not None and wanted.get("type") in (None, kind):
                    return True
        return False

    def chat_buttons(self, user: FakeUser) -> list[dict[str, Any]]:
        """The chat-picking buttons (`request_chat`) of the reply keyboard shown in the
        person's private chat: each `{"text": ..., "request_chat": {...}}`."""
        keyboard = self.keyboards.get(user.id) or {}
        return [
            button
            for row in keyboard.get("keyboard", [])
            for button in row
            if isinstance(button, dict) and "request_chat" in button
        ]

    def pickable(self, user: FakeUser, request: dict[str, Any]) -> list[Chat]:
        """The chats Telegram lets `user` pick for a KeyboardButtonRequestChat: those they are
        in that satisfy every condition the button set."""
        return [chat for chat in self.chats.values() if self._satisfies(user, chat, request)]

    def _satisfies(self, user: FakeUser, chat: Chat, request: dict[str, Any]) -> bool:
        if chat.type == "private" or (chat.type == "channel") != request["chat_is_channel"]:
            return False
        is_member = user.id in chat.admins or chat.members is None or user.id in chat.members
        wanted = {
            "chat_is_forum": chat.topics is not None,
            "chat_has_username": chat.username is not None,
            "chat_is_created": chat.creator == user.id,
        }
        if not is_member or any(
            name in request and request[name] != value for name, value in wanted.items()
        ):
            return False
        bot_admin = self.bot_admin_rights(chat)
        if request.get("bot_is_member") and chat.kicked:
            return False
        rights = request.get("bot_administrator_rights")
        if rights is not None and (bot_admin is None or not _granted(rights) <= bot_admin):
            return False
        rights = request.get("user_administrator_rights")
        return rights is None or user.id in chat.admins  # the stand-in's admins have every right

    def bot_admin_rights(self, chat: Chat) -> set[str] | None:
        """The bot's rights as an administrator of the chat; None where it is none."""
        if chat.kicked:
            return None
        if chat.bot_rights is not None:
            return chat.bot_rights
        if chat.type == "channel" and chat.can_send_messages:
            return {"can_post_messages", "can_edit_messages", "can_delete_messages"}
        return None

    def share_chat(self, user: FakeUser, chat: Chat, button: str | None = None) -> Message:
        """`user` presses a chat-picking button of the reply keyboard in their private chat
        (the one labelled `button`, or the only one) and picks `chat`, as Telegram's apps let
        them: only a chat that satisfies the button's request. Telegram then sends a message
        from them with `chat_shared` (the request's id, the chat's id, and its title or
        username where the button asked for them)."""
        buttons = self.chat_buttons(user)
        found = [b for b in buttons if button is None or b["text"] == button]
        if len(found) != 1:
            shown = [b["text"] for b in buttons]
            raise AssertionError(f"no chat button {button!r} in the keyboard: {shown}")
        request = found[0]["request_chat"]
        if not self._satisfies(user, chat, request):
            raise AssertionError(f"chat {chat.id} cannot be picked for {request}")
        shared: dict[str, Any] = {"request_id": request["request_id"], "chat_id": chat.id}
        if request.get("request_title") and chat.title:
            shared["title"] = chat.title
        if request.get("request_username") and chat.username:
            shared["username"] = chat.username
        self._seen_users.add(user.id)
        message = self._new_message(
            self.private_chat(user), sender=user.to_dict(), chat_shared=shared
        )
        self._push({"message": message.to_dict(self.bot_user)})
        return message

    def file_content(self, document: dict[str, Any]) -> bytes:
        return self.files[document["file_id"]][1]

    def add_bot(self, chat: Chat, by: FakeUser) -> None:
        """`by` adds the bot to `chat` (made with `group`): Telegram tells the bot with a
        my_chat_member update. The bot is an administrator where `bot_rights` says so (in a
        channel, always), else a member."""
        chat.kicked = False
        admin = chat.bot_rights is not None or chat.type == "channel"
        bot = {k: self.bot_user[k] for k in ("id", "is_bot", "first_name", "username")}
        new = self._member(chat, bot, "administrator" if admin else "member")
        old = {"status": "left", "user": bot}
        self._push({"my_chat_member": self._member_change(chat, by, old, new)})

    def promote(self, chat: Chat, user: FakeUser, by: FakeUser) -> None:
        """`by` makes `user` an admin of `chat`; a bot that is an admin there is told
        (chat_member), as Telegram tells it."""
        chat.admins.add(user.id)
        self._member_changed(chat, user, by, "member", "administrator")

    def demote(self, chat: Chat, user: FakeUser, by: FakeUser) -> None:
        """`by` takes `user`'s admin rights in `chat` away (chat_member, as `promote`)."""
        chat.admins.discard(user.id)
        self._member_changed(chat, user, by, "administrator", "member")

    def _member_changed(self, chat: Chat, user: FakeUser, by: FakeUser, old: str, new: str) -> None:
        if chat.bot_rights is None and chat.type != "channel":
            return  # Telegram sends chat_member only to a bot that administers the chat
        person = {k: v for k, v in user.to_dict().items() if k != "language_code"}
        change = self._member_change(
            chat, by, self._member(chat, person, old), self._member(chat, person, new)
        )
        self._push({"chat_member": change})

    def _member_change(
        self, chat: Chat, by: FakeUser, old: dict[str, Any], new: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "chat": chat.to_dict(),
            "from": by.to_dict(),
            "date": int(time.time()),
            "old_chat_member": old,
            "new_chat_member": new,
        }

    @staticmethod
    def _member(chat: Chat, user: dict[str, Any], status: str) -> dict[str, Any]:
        """A ChatMember of `status`, with the fields Telegram gives that status."""
        member: dict[str, Any] = {"status": status, "user": user}
        if status == "administrator":
            member.update(
                can_be_edited=False, is_anonymous=False, can_manage_chat=True,
                can_delete_messages=True, can_manage_video_chats=True,
                can_restrict_members=True, can_promote_members=False, can_change_info=True,
                can_invite_users=True, can_post_stories=False, can_edit_stories=False,
                can_delete_stories=False,
            )  # fmt: skip
        return member

    def post_in_channel(self, channel: Chat, text: str) -> Message:
        """An admin posts `text` into `channel`: a channel post, sent as the channel itself."""
        message = self._new_message(channel, text=text, sender_chat=channel.to_dict())
        self._push({"channel_post": message.to_dict(self.bot_user)})
        return message

    def sent_earlier(
        self, chat: Chat, text: str, buttons: list[tuple[str, str]], days_ago: float = 1
    ) -> Message:
        """A message the bot sent into `chat` before this test (an earlier version of it, say):
        `buttons` are (label, callback data), one per row. Nothing is queued: it is history."""
        markup = {
            "inline_keyboard": [[{"text": label, "callback_data": data}] for label, data in buttons]
        }
        return self._new_message(
            chat,
            from_bot=True,
            text=text,
            reply_markup=self._markup({"reply_markup": markup}),
            date=int(time.time() - days_ago * 86_400),
        )

    def _new_message(
        self,
        chat: Chat,
        *,
        from_bot: bool = False,
        text: str = "",
        html: str | None = None,
        date: int | None = None,
        **fields: Any,
    ) -> Message:
        """A message in `chat` under its next id, kept; `html` is the text as sent (the bot's
        HTML, a person's plain text)."""
        message = Message(
            chat=chat,
            message_id=next(self._message_ids[chat.id]),
            from_bot=from_bot,
            text=text,
            html=text if html is None else html,
            reply_markup=fields.pop("reply_markup", None),
            date=int(time.time()) if date is None else date,
            **fields,
        )
        self.messages[(chat.id, message.message_id)] = message
        if from_bot and self.on_bot_message is not None:
            self.on_bot_message(message)
        return message

    def vote(self, user: FakeUser, message: Message, option: int | Sequence[int]) -> int:
        """`user` votes `option` (several options, in a poll that allows multiple answers) in
        the poll of `message`; Telegram then sends a poll_answer."""
        poll = message.poll
        if poll is None:
            raise AssertionError(f"message {message.message_id} has no poll")
        self.close_due_polls()
        if poll["is_closed"]:
            raise AssertionError("the poll is closed")
        options = [option] if isinstance(option, int) else sorted(option)
        if not options or len(set(options)) != len(options):
            raise AssertionError("a vote names one or more distinct options")
        if len(options) > 1 and not poll["allows_multiple_answers"]:
            raise AssertionError("this poll takes one option per vote")
        if not all(0 <= chosen < len(poll["options"]) for chosen in options):
            raise AssertionError("no such option in the poll")
        voters = self._poll_voters.setdefault(poll["id"], set())
        if poll["type"] == "quiz" and user.id in voters:
            raise AssertionError("a quiz poll takes one vote per person")
        voters.add(user.id)
        self._seen_users.add(user.id)
        for chosen in options:
            poll["options"][chosen]["voter_count"] += 1
        poll["total_voter_count"] += 1
        return self._push({"poll_answer": poll_answer(poll["id"], user, options)})

    def push_update(self, update: dict[str, Any]) -> int:
        """Queue a raw update (for shapes the helpers don't build); returns its update_id."""
        return self._push(update)

    def tap(self, user: FakeUser, message: Message, data: str, forge: bool = False) -> str:
        """`user` taps the button carrying `data`; `forge=True` sends data no button has."""
        if not forge and data not in message.button_data():
            raise AssertionError(f"no button {data!r} on message {message.message_id}")
        return self._callback_query(user, data, message)

    def press_link(self, user: FakeUser, message: Message, url: str | None = None) -> Message:
        """`user` presses a URL button of `message` (the one with `url`, or its only one) that
        opens the bot's private chat, `https://t.me/<bot>?start=<payload>`: Telegram then
        sends `/start <payload>` from them, in that chat, as pressing Start does. A payload
        Telegram would not pass on (over 64 characters, or outside `[A-Za-z0-9_-]`) arrives as
        a bare `/start`."""
        links = [b["url"] for b in message.buttons if "url" in b]
        if url is None:
            if len(links) != 1:
                raise AssertionError(f"message {message.message_id} has URL buttons {links}")
            url = links[0]
        elif url not in links:
            raise AssertionError(f"no URL button {url!r} on message {message.message_id}")
        return self.open_link(user, url)

    def open_link(self, user: FakeUser, url: str) -> Message:
        """`user` opens a `t.me` start link, however they got it (typed, forwarded)."""
        found = re.fullmatch(r"https://t\.me/([A-Za-z0-9_]+)\?start=(.*)", url)
        if found is None or found.group(1) != self.bot_user["username"]:
            raise AssertionError(f"{url!r} is not a start link of @{self.bot_user['username']}")
        payload = found.group(2)
        valid = re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload) is not None
        return self.send_text(user, f"/start {payload}" if valid else "/start")

    def tap_inline(self, user: FakeUser, data: str) -> str:
        """`user` taps a button on an inline message (sent via the bot in someone else's chat):
        Telegram names no chat and no message then, only `inline_message_id`."""
        return self._callback_query(user, data, None)

    def _callback_query(self, user: FakeUser, data: str, message: Message | None) -> str:
        self._seen_users.add(user.id)
        query_id = str(next(self._query_ids))
        self._open_queries[query_id] = self.clock()
        query: dict[str, Any] = {"id": query_id, "from": user.to_dict(), "data": data}
        if message is None:
            query.update(chat_instance="-1", inline_message_id=f"inline-{query_id}")
        else:
            query.update(chat_instance=str(message.chat.id), message=message.to_dict(self.bot_user))
        self._push({"callback_query": query})
        return query_id

    def block(self, user: FakeUser) -> None:
        self.private_chat(user).blocked = True

    def kick_bot(self, chat: Chat) -> None:
        """The bot is removed from a group or channel: every call about it is refused (403)."""
        chat.kicked = True

    def restrict_bot(self, chat: Chat, messages: bool = False, polls: bool = False) -> None:
        """The bot stays in the chat but may not send text messages (or polls) there."""
        chat.can_send_messages = messages
        chat.can_send_polls = polls

    def upgrade(
        self, chat: Chat, new_id: int, by: FakeUser, notices: Sequence[str] = ("to", "from")
    ) -> Chat:
        """A basic group becomes a supergroup under `new_id` (it grew past 200 members, or an
        admin changed a setting only supergroups have), as Telegram does it: the supergroup
        has the group's title, members and admins, and no message of it; every call naming
        the old id is refused (400, `migrate_to_chat_id`). Telegram then tells the bot with a
        service message in each chat, in any order, or only one: `notices` names them, "to"
        (in the old group, `migrate_to_chat_id`) and "from" (in the supergroup,
        `migrate_from_chat_id`)."""
        if chat.type != "group" or chat.migrated_to is not None:
            raise AssertionError(f"chat {chat.id} is not a basic group")
        upgraded = Chat(
            id=new_id, type="supergroup", title=chat.title, admins=set(chat.admins),
            can_send_messages=chat.can_send_messages, can_send_polls=chat.can_send_polls,
            members=None if chat.members is None else set(chat.members),
            bot_rights=chat.bot_rights, creator=chat.creator,
        )  # fmt: skip
        self.chats[new_id] = upgraded
        chat.migrated_to = new_id
        for notice in notices:
            self.upgrade_notice(chat, by, notice)
        return upgraded

    def upgrade_notice(self, group: Chat, by: FakeUser, notice: str) -> int:
        """Telegram's service message about an upgraded group (see `upgrade`): "to", in the
        old group, or "from", in the supergroup; its update_id."""
        if group.migrated_to is None:
            raise AssertionError(f"chat {group.id} was not upgraded")
        upgraded = self.chats[group.migrated_to]
        where, field_name, value = {
            "to": (group, "migrate_to_chat_id", upgraded.id),
            "from": (upgraded, "migrate_from_chat_id", group.id),
        }[notice]
        message = {
            "message_id": next(self._message_ids[where.id]),
            "date": int(time.time()),
            "chat": where.to_dict(),
            "from": by.to_dict(),
            field_name: value,
        }
        return self._push({"message": message})

    def forget_chat(self, chat: Chat) -> None:
        """The chat is gone (deleted, or an id that never existed): "chat not found"."""
        self.chats.pop(chat.id, None)

    def fail(
        self,
        method: str,
        status: int,
        description: str,
        retry_after: int | None = None,
        times: int = 1,
        body: str | None = None,
    ) -> None:
        """The next `times` calls of `method` fail with that status; with `body`, the answer
        is that page instead of the Bot API's JSON (as a proxy in front of Telegram sends)."""
        for _ in range(times):
            self._faults.append((method, ApiError(status, description, retry_after, body)))

    def clear_faults(self) -> None:
        """Telegram is well again: the faults not yet served are dropped."""
        self._faults.clear()

    def delay(self, method: str | None, seconds: float, times: int = 1, lost: bool = False) -> None:
        """The next `times` calls of `method` (None: of any method) wait `seconds` before the
        stand-in answers. Then the call is carried out, even if the bot has stopped waiting;
        `lost=True`: it is not, and fails with 504 (seen only by a bot that still waits)."""
        for _ in range(times):
            self._delays.append((method, seconds, lost))

    # observing

    def bot_messages(self, chat_id: int) -> list[Message]:
        return [m for (c, _), m in sorted(self.messages.items()) if c == chat_id and m.from_bot]

    def calls_to(self, method: str) -> list[Call]:
        return [call for call in self.calls if call.method == method]

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 15.0) -> T:
        """Wait until `predicate()` is truthy (checked after every API call); return it."""

        async def _wait() -> T:
            async with self._changed:
                while True:
                    value = predicate()
                    if value:
                        return value
                    await self._changed.wait()

        try:
            return await asyncio.wait_for(_wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"condition not met in {timeout}s\n{self.describe()}") from None

    def describe(self, last: int = 8) -> str:
        """The last calls, for a failing test's message."""
        lines = []
        for call in self.calls[-last:]:
            text = str(call.params.get("text", ""))[:120].replace("\n", " | ")
            gone = " (abandoned)" if call.abandoned else ""
            lines.append(f"  {call.method} ok={call.ok}{gone} {call.description} {text}")
        return "last Bot API calls:\n" + "\n".join(lines)

    async def wait_for_bot_message(
        self, chat_id: int, contains: str, after: int = 0, timeout: float = 15.0
    ) -> Message:
        """The first message the bot sends into `chat_id`, past the first `after`, with `contains`
        (in its text, or in its caption)."""

        def found() -> Message | None:
            for message in self.bot_messages(chat_id)[after:]:
                if contains in message.shown:
                    return message
            return None

        return await self.wait_for(found, timeout)

    async def wait_for_answer(self, query_id: str, timeout: float = 15.0) -> dict[str, Any]:
        return await self.wait_for(lambda: self.callback_answers.get(query_id), timeout)

    async def wait_until_polled(self, timeout: float = 15.0) -> None:
        """Wait until the bot has fetched every queued update."""
        await self.wait_for(lambda: not self._updates and self._polled, timeout)

    # the Bot API

    def _push(self, update: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        if self._delivery is not None:
            self._delivery.put({"update_id": update_id, **update})
            return update_id
        self._updates.append({"update_id": update_id, **update})
        self._notify()
        return update_id

    _notifying = False  # a notification is on its way: later changes ride on it

    def _notify(self) -> None:
        if self._notifying:
            return
        self._notifying = True

        async def notify() -> None:
            self._notifying = False  # a change from now on sends another
            async with self._changed:
                self._changed.notify_all()

        asyncio.get_running_loop().create_task(notify())

    _polled = False

    async def _download(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            return web.Response(status=401, text="Unauthorized")
        path = request.match_info["path"]
        for file_path, content in self.files.values():
            if file_path == path:
                self.downloads.append(path)
                self._notify()
                return await self._stream(request, path, content)
        return web.Response(status=404, text="Not Found")

    async def _stream(self, request: web.Request, path: str, content: bytes) -> web.StreamResponse:
        """Send a file in pieces, counting what was sent until the bot hung up."""
        response = web.StreamResponse(headers={"Content-Type": "application/octet-stream"})
        response.content_length = len(content)
        await response.prepare(request)
        self.download_sent[path] = 0
        try:
            for start in range(0, len(content), 65536):
                await response.write(content[start : start + 65536])
                self.download_sent[path] = min(start + 65536, len(content))
            await response.write_eof()
        except ConnectionError:
            pass  # the bot stopped reading
        return response

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        method = request.match_info["method"]
        params = await _read_params(request)
        self.close_due_polls()
        try:
            await self._inject_delay(method)
            self._inject_fault(method)
            handler = getattr(self, f"_api_{method}", None)
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            result = await handler(params)
        except ApiError as error:
            self.calls.append(
                Call(
                    method,
                    params,
                    False,
                    error.description,
                    abandoned=_gone(request),
                    port=_caller_port(request),
                )
            )
            self._notify()
            if error.body is not None:
                return web.Response(status=error.status, text=error.body, content_type="text/html")
            body: dict[str, Any] = {
                "ok": False,
                "error_code": error.status,
                "description": error.description,
            }
            if error.retry_after is not None:
                body["parameters"] = {"retry_after": error.retry_after}
            if error.migrate_to is not None:
                body["parameters"] = {"migrate_to_chat_id": error.migrate_to}
            return web.json_response(body, status=error.status)
        self.calls.append(
            Call(method, params, True, abandoned=_gone(request), port=_caller_port(request))
        )
        self._notify()
        return web.json_response({"ok": True, "result": result})

    async def _inject_delay(self, method: str) -> None:
        for index, (target, seconds, lost) in enumerate(self._delays):
            if target is None or target == method:
                del self._delays[index]
                self.delayed.append(method)
                self._notify()
                await asyncio.sleep(seconds)  # a slow server, not a test waiting
                if lost:
                    raise ApiError(504, f"Gateway Timeout: lost after {seconds}s")
                return

    def _inject_fault(self, method: str) -> None:
        for index, (target, error) in enumerate(self._faults):
            if target == method:
                del self._faults[index]
                raise error

    async def _api_getMe(self, params: dict[str, Any]) -> Any:
        return self.bot_user

    async def _api_deleteWebhook(self, params: dict[str, Any]) -> Any:
        self.webhook = None
        if self._delivery is not None:
            await self._delivery.stop()
            self._delivery = None
        return True

    webhook: dict[str, Any] | None = None

    async def _api_setWebhook(self, params: dict[str, Any]) -> Any:
        if not str(params.get("url", "")).startswith(("http://", "https://")):
            raise ApiError(400, "Bad Request: bad webhook: an HTTPS URL must be provided")
        secret = params.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", str(secret)):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        self.webhook = params
        if self.deliver_webhooks:
            if self._delivery is not None:
                await self._delivery.stop()
            self._delivery = _WebhookDelivery(params)
            for waiting in self._updates:
                self._delivery.put(waiting)
            self._updates = []
        return True

    async def _api_setMyCommands(self, params: dict[str, Any]) -> Any:
        """As Telegram checks it: each command 1-32 characters of [a-z0-9_], a description of
        1-256, at most 100 commands; a known scope type with the fields it needs (a chat the
        bot knows: a person who never wrote to it has no private chat yet); a language code of
        two letters, or none. An empty list deletes the scope's list."""
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise ApiError(400, "Bad Request: can't parse commands JSON object")
        if len(commands) > MAX_BOT_COMMANDS:
            raise ApiError(400, "Bad Request: BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            name, description = command.get("command"), command.get("description")
            if not isinstance(name, str) or not COMMAND_NAME.fullmatch(name):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not isinstance(description, str) or not 1 <= len(description) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        key = self._menu_key(params.get("scope"), params.get("language_code"))
        if commands:
            self.commands[key] = commands
        else:
            self.commands.pop(key, None)
        return True

    async def _api_deleteMyCommands(self, params: dict[str, Any]) -> Any:
        self.commands.pop(self._menu_key(params.get("scope"), params.get("language_code")), None)
        return True

    async def _api_getMyCommands(self, params: dict[str, Any]) -> Any:
        return self.commands.get(
            self._menu_key(params.get("scope"), params.get("language_code")), []
        )

    menu_buttons: dict[int | None, dict[str, Any]]  # chat id (None: every private chat)

    async def _api_setChatMenuButton(self, params: dict[str, Any]) -> Any:
        """As Telegram checks it: a private chat the bot knows (none: every private chat's
        default); a button of type `commands`, `web_app` (a text of 1-64 characters, an https
        URL) or `default`, or none: the default again."""
        key = None
        if params.get("chat_id") is not None:
            chat = self._chat(params)
            if chat.type != "private":
                raise ApiError(400, "Bad Request: chat_id must be a private chat")
            key = chat.id
        button = params.get("menu_button") or {"type": "default"}
        if not isinstance(button, dict):
            raise ApiError(400, "Bad Request: can't parse menu button JSON object")
        if button.get("type") == "web_app":
            text = button.get("text")
            if not isinstance(text, str) or not 1 <= len(text) <= 64:
                raise ApiError(400, "Bad Request: BUTTON_TEXT_INVALID")
            problem = web_app_button_problem(
                button, "private", inline=False, http_allowed=self.strictness.http_web_apps
            )
            if problem is not None:
                raise ApiError(400, problem)
        elif button.get("type") not in ("commands", "default"):
            raise ApiError(400, "Bad Request: unsupported menu button type")
        if button["type"] == "default":
            self.menu_buttons.pop(key, None)
        else:
            self.menu_buttons[key] = button
        return True

    async def _api_getChatMenuButton(self, params: dict[str, Any]) -> Any:
        key = None if params.get("chat_id") is None else self._chat(params).id
        return self.menu_buttons.get(key) or self.menu_buttons.get(None) or {"type": "default"}

    def menu_button(self, user: FakeUser) -> dict[str, Any]:
        """The menu button Telegram shows `user` in their private chat."""
        found = self.menu_buttons.get(user.id) or self.menu_buttons.get(None)
        return found or {"type": "default"}

    def _menu_key(self, raw_scope: Any, language: Any) -> str:
        """The key of a scope and a language in `commands`, once both are checked."""
        scope = raw_scope or {"type": "default"}
        if isinstance(scope, str):
            try:
                scope = json.loads(scope)
            except ValueError:
                raise ApiError(
                    400, "Bad Request: can't parse BotCommandScope JSON object"
                ) from None
        if not isinstance(scope, dict) or scope.get("type") not in MENU_SCOPES:
            raise ApiError(400, "Bad Request: unsupported bot command scope type")
        for needed in MENU_SCOPES[scope["type"]]:
            if needed not in scope:
                raise ApiError(400, f'Bad Request: can\'t find field "{needed}"')
        if "chat_id" in scope:
            chat = self.chats.get(int(scope["chat_id"]))
            if chat is None:
                raise ApiError(400, "Bad Request: chat not found")
            if scope["type"] in ("chat_administrators", "chat_member") and chat.type == "private":
                raise ApiError(400, "Bad Request: can't use the scope in a private chat")
        if language not in (None, "") and not re.fullmatch(r"[a-z]{2}", str(language)):
            raise ApiError(400, "Bad Request: invalid language code specified")
        return f"{json.dumps(scope, sort_keys=True)}|{language or ''}"

    def menu(self, user: FakeUser, chat: Chat | None = None) -> list[str]:
        """The commands Telegram shows `user` in `chat` (default: their private chat): the
        most specific scope that has a list, in the person's language if it has one, else
        the list for every language. Lists are never merged."""
        chat = chat or self.private_chat(user)
        if chat.type == "private":
            scopes: list[dict[str, Any]] = [
                {"type": "chat", "chat_id": chat.id},
                {"type": "all_private_chats"},
            ]
        else:
            admin = user.id in chat.admins
            scopes = [
                {"type": "chat_member", "chat_id": chat.id, "user_id": user.id},
                *([{"type": "chat_administrators", "chat_id": chat.id}] if admin else []),
                {"type": "chat", "chat_id": chat.id},
                *([{"type": "all_chat_administrators"}] if admin else []),
                {"type": "all_group_chats"},
            ]
        for scope in [*scopes, {"type": "default"}]:
            for language in (user.language_code or "", ""):
                found = self.commands.get(f"{json.dumps(scope, sort_keys=True)}|{language}")
                if found:
                    return [command["command"] for command in found]
        return []

    async def _api_getUpdates(self, params: dict[str, Any]) -> Any:
        offset = int(params.get("offset") or 0)
        limit = int(params.get("limit") or 100)
        timeout = float(params.get("timeout") or 0)
        self._updates = [u for u in self._updates if u["update_id"] >= offset]
        if not self._updates and timeout > 0:
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self._changed.wait_for(lambda: bool(self._updates)), timeout
                    )
        self._polled = True
        return self._updates[:limit]

    def _chat(self, params: dict[str, Any]) -> Chat:
        raw = params.get("chat_id")
        chat = None
        if isinstance(raw, str) and raw.startswith("@"):
            chat = next((c for c in self.chats.values() if c.title and f"@{c.title}" == raw), None)
        elif raw is not None:
            chat = self.chats.get(int(raw))
        # a person Telegram knows (seen in a group) who never opened a chat with the bot
        if chat is None and str(raw).isdigit() and int(str(raw)) in self._seen_users:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                migrate_to=chat.migrated_to,
            )
        if chat.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        if chat.kicked:
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        return chat

    @staticmethod
    def _may_send(chat: Chat, what: str, allowed: bool) -> None:
        if not allowed:
            raise ApiError(400, f"Bad Request: not enough rights to send {what} to the chat")

    def _check_group_rate(self, chat: Chat) -> None:
        limit = self.strictness.group_messages_per_minute
        if chat.type == "private" or limit is None:
            return
        now = self.clock()
        sends = self._group_sends[chat.id]
        while sends and now - sends[0] >= 60:
            sends.popleft()
        if len(sends) >= limit:
            retry = max(1, int(60 - (now - sends[0])) + 1)
            raise ApiError(429, f"Too Many Requests: retry after {retry}", retry_after=retry)
        sends.append(now)

    def _text(self, params: dict[str, Any]) -> tuple[str, str]:
        raw = params.get("text")
        if not isinstance(raw, str) or not raw.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        text = self._visible(raw, params, self.strictness.max_text, "message is too long")
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        return raw, text

    @staticmethod
    def _visible(raw: str, params: dict[str, Any], limit: int, too_long: str) -> str:
        """A text or caption as shown, after entity parsing; refused as Telegram refuses it."""
        try:
            text = visible_text(raw, params.get("parse_mode"))
        except EntityParseError as error:
            raise ApiError(400, f"Bad Request: can't parse entities: {error}") from None
        if telegram_length(text) > limit:
            raise ApiError(400, f"Bad Request: {too_long}")
        return text

    def _show_keyboard(self, chat: Chat, markup: dict[str, Any] | None) -> None:
        """A reply keyboard stays under the chat's input field until another replaces it or
        `remove_keyboard` takes it away (an inline keyboard leaves it as it is)."""
        if markup is None or "inline_keyboard" in markup:
            return
        if markup.get("remove_keyboard"):
            self.keyboards.pop(chat.id, None)
        elif "keyboard" in markup:
            self.keyboards[chat.id] = markup

    def _markup(self, params: dict[str, Any], chat: Chat | None = None) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if markup is None:
            return None
        if "keyboard" in markup:
            _check_reply_keyboard(markup, chat)
        rows = markup.get("inline_keyboard")
        if rows is None:
            return markup
        for row in rows:
            for button in row:
                if not button.get("text"):
                    raise ApiError(
                        400, "Bad Request: text buttons are unallowed in the inline keyboard"
                    )
                data = button.get("callback_data")
                limit = self.strictness.max_callback_data
                if data is not None and not 1 <= len(data.encode()) <= limit:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                link = button.get("url")
                if link is not None and not re.fullmatch(r"(https?|tg)://[^\s]+", str(link)):
                    raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
                if (data is None) == (link is None) and not _other_action(button):
                    raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
                if "web_app" in button:
                    raw = str(params.get("chat_id"))  # an int, or its text in a form
                    chat = self.chats.get(int(raw)) if re.fullmatch(r"-?\d{1,20}", raw) else None
                    problem = web_app_button_problem(
                        button, chat.type if chat else "", True, self.strictness.http_web_apps
                    )
                    if problem:
                        raise ApiError(400, problem)
        return markup

    async def _api_sendMessage(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        self._may_send(chat, "text messages", chat.can_send_messages)
        raw, text = self._text(params)
        markup = self._markup(params, chat)
        thread = self._thread(chat, params)
        reply_to = self._reply_to(chat, params)
        self._check_group_rate(chat)
        self._show_keyboard(chat, markup)
        message = self._new_message(
            chat, from_bot=True, text=text, html=raw, reply_markup=markup, reply_to=reply_to,
            thread_id=thread,
        )  # fmt: skip
        return message.to_dict(self.bot_user)

    def _reply_to(self, chat: Chat, params: dict[str, Any]) -> Message | None:
        """The message a send replies to (`reply_parameters`), which must be in its chat."""
        wanted = params.get("reply_parameters")
        if isinstance(wanted, str):
            wanted = json.loads(wanted)
        if not wanted:
            return None
        found = self.messages.get((chat.id, int(wanted.get("message_id") or 0)))
        if found is None and not wanted.get("allow_sending_without_reply"):
            raise ApiError(400, "Bad Request: message to be replied not found")
        return found

    def _photo_sizes(self, content: bytes, name: str) -> list[dict[str, Any]]:
        """The sizes Telegram answers with for a new photo: a thumbnail and the photo itself
        (each with its own file_id, both kept); refused if the file is no image."""
        try:
            with PILImage.open(io.BytesIO(content)) as image:
                width, height = image.size
        except Exception:
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED") from None
        if width + height > 10_000 or max(width, height) > 20 * min(width, height):
            raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        sizes = []
        for scale, suffix in ((max(1, max(width, height) // 90), "thumb"), (1, name)):
            document = self.add_file(content, f"{suffix}.jpg")
            sizes.append({
                "file_id": document["file_id"], "file_unique_id": document["file_unique_id"],
                "width": max(1, width // scale), "height": max(1, height // scale),
                "file_size": len(content),
            })  # fmt: skip
        return sizes

    def _caption(self, params: dict[str, Any]) -> tuple[str | None, str | None]:
        """(as sent, as shown) of a caption, held to Telegram's limit after entity parsing."""
        caption = params.get("caption")
        if not caption:
            return None, None
        shown = self._visible(
            str(caption), params, self.strictness.max_caption, "message caption is too long"
        )
        return str(caption), shown

    async def _api_sendPhoto(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        self._may_send(chat, "photos", chat.can_send_messages)
        photo = params.get("photo")
        if isinstance(photo, dict):  # uploaded, multipart
            if not photo["content"]:
                raise ApiError(400, "Bad Request: file must be non-empty")
            if len(photo["content"]) > 10 * 1024 * 1024:
                raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
            sizes = self._photo_sizes(photo["content"], str(photo["filename"] or "photo"))
            self.photo_uploads.append(photo["content"])
        elif isinstance(photo, str) and photo.startswith("https://"):
            sizes = self._photo_sizes(_URL_PHOTO, "url")  # Telegram fetched it
            self.photo_urls.append(photo)
        elif isinstance(photo, str) and photo in self.files and photo not in self.refused_file_ids:
            sizes = self._photo_sizes(self.files[photo][1], "again")
        else:
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        raw, caption = self._caption(params)
        markup = self._markup(params)
        thread = self._thread(chat, params)
        reply_to = self._reply_to(chat, params)
        self._check_group_rate(chat)
        message = self._new_message(
            chat, from_bot=True, photo=sizes, caption=caption, caption_html=raw,
            reply_markup=markup, reply_to=reply_to, thread_id=thread,
        )  # fmt: skip
        return message.to_dict(self.bot_user)

    async def _api_editMessageCaption(self, params: dict[str, Any]) -> Any:
        message = self._message(params)
        if message.photo is None and message.document is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        raw, caption = self._caption(params)
        markup = self._markup(params)
        if (
            caption == message.caption
            and raw == message.caption_html
            and (markup == message.reply_markup)
        ):
            raise ApiError(400, "Bad Request: message is not modified")
        self._check_group_rate(message.chat)
        message.caption, message.caption_html, message.reply_markup = caption, raw, markup
        message.edits += 1
        if self.on_bot_message is not None:
            self.on_bot_message(message)
        return message.to_dict(self.bot_user)

    def _message(self, params: dict[str, Any]) -> Message:
        chat = self._chat(params)
        message = self.messages.get((chat.id, int(params.get("message_id") or 0)))
        if message is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        return message

    async def _api_editMessageText(self, params: dict[str, Any]) -> Any:
        message = self._message(params)
        if not message.text:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        raw, text = self._text(params)
        markup = self._markup(params)
        if text == message.text and raw == message.html and markup == message.reply_markup:
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message",
            )
        self._check_group_rate(message.chat)
        message.text, message.html, message.reply_markup = text, raw, markup
        message.edits += 1
        if self.on_bot_message is not None:
            self.on_bot_message(message)
        return message.to_dict(self.bot_user)

    async def _api_editMessageReplyMarkup(self, params: dict[str, Any]) -> Any:
        message = self._message(params)
        markup = self._markup(params)
        if markup == message.reply_markup:
            raise ApiError(400, "Bad Request: message is not modified")
        self._check_group_rate(message.chat)
        message.reply_markup = markup
        message.edits += 1
        return message.to_dict(self.bot_user)

    async def _api_deleteMessage(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        message = self.messages.get((chat.id, int(params.get("message_id") or 0)))
        if message is None:
            raise ApiError(400, "Bad Request: message to delete not found")
        if not message.from_bot and chat.type != "private":  # others' need admin rights
            raise ApiError(400, "Bad Request: message can't be deleted")
        del self.messages[(chat.id, message.message_id)]
        return True

    async def _api_getFile(self, params: dict[str, Any]) -> Any:
        file_id = str(params.get("file_id") or "")
        if file_id not in self.files:
            raise ApiError(400, "Bad Request: invalid file_id")
        file_path, content = self.files[file_id]
        if len(content) > self.strictness.max_download:
            raise ApiError(400, "Bad Request: file is too big")
        number = file_id.removeprefix("file-")
        found = {
            "file_id": file_id,
            "file_unique_id": f"unique-{number}",
            "file_size": len(content),
            "file_path": file_path,
        }
        if file_id in self._unannounced:
            del found["file_size"]
        return found

    async def _api_sendDocument(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        self._may_send(chat, "documents", chat.can_send_messages)
        document = params.get("document")
        if isinstance(document, dict):
            content = document["content"]
            if not content:
                raise ApiError(400, "Bad Request: file must be non-empty")
            if len(content) > self.strictness.max_upload:
                raise ApiError(413, "Request Entity Too Large")
            sent = self.add_file(content, document["filename"] or "document")
        elif isinstance(document, str) and document in self.files:
            file_path, content = self.files[document]
            sent = self.add_file(content, file_path.rsplit("_", 1)[-1])
        else:
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        caption = params.get("caption")
        caption_text = None
        if caption:
            caption_text = self._visible(
                str(caption), params, self.strictness.max_caption, "message caption is too long"
            )
        thread = self._thread(chat, params)
        self._check_group_rate(chat)
        self._show_keyboard(chat, self._markup(params, chat))
        message = self._new_message(
            chat, from_bot=True, reply_markup=self._markup(params, chat), document=sent,
            caption=caption_text, thread_id=thread,
        )  # fmt: skip
        return message.to_dict(self.bot_user)

    async def _api_sendPoll(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        self._may_send(chat, "polls", chat.can_send_polls and chat.can_send_messages)
        question = str(params.get("question") or "")
        options = params.get("options") or []
        texts = [o["text"] if isinstance(o, dict) else str(o) for o in options]
        anonymous = str(params.get("is_anonymous", "true")).lower() != "false"
        kind = str(params.get("type") or "regular")
        explanation = params.get("explanation")
        if not 1 <= len(question) <= 300:
            raise ApiError(400, "Bad Request: poll question length must not exceed 300")
        if not 2 <= len(texts) <= 10 or any(not 1 <= len(t) <= 100 for t in texts):
            raise ApiError(400, "Bad Request: POLL_OPTION_INVALID")
        if explanation is not None and len(str(explanation)) > 200:
            raise ApiError(400, "Bad Request: explanation is too long")
        if chat.type == "channel" and not anonymous:
            raise ApiError(400, "Bad Request: non-anonymous polls can't be sent to channel chats")
        multiple = str(params.get("allows_multiple_answers", "false")).lower() == "true"
        correct = _correct_option_ids(params, len(texts), multiple) if kind == "quiz" else None
        period = _open_period(params)
        markup = self._markup(params)
        thread = self._thread(chat, params)
        self._check_group_rate(chat)
        poll: dict[str, Any] = {
            "id": str(next(self._poll_ids)),
            "question": question,
            "options": [
                {"text": t, "voter_count": 0, "persistent_id": str(n)} for n, t in enumerate(texts)
            ],
            "total_voter_count": 0,
            "is_closed": False,
            "is_anonymous": anonymous,
            "type": kind,
            "allows_multiple_answers": multiple,
            "allows_revoting": False,  # a quiz poll's vote is final
            "members_only": False,
        }
        if correct is not None:
            poll["correct_option_ids"] = correct
        if explanation:
            poll["explanation"] = str(explanation)
        if period is not None:
            poll["open_period"] = period
            poll["close_date"] = int(time.time()) + period
        message = self._new_message(
            chat, from_bot=True, reply_markup=markup, poll=poll, thread_id=thread
        )
        if period is not None:
            self._poll_closes[poll["id"]] = (self.clock() + period, message)
        return message.to_dict(self.bot_user)

    def close_due_polls(self) -> None:
        """Close the polls whose own timer (`open_period`) has run out, as Telegram does."""
        now = self.clock()
        for poll_id, (closes, message) in list(self._poll_closes.items()):
            if now >= closes:
                del self._poll_closes[poll_id]
                if message.poll is not None and not message.poll["is_closed"]:
                    message.poll["is_closed"] = True
                    message.edits += 1
                    self._notify()

    async def _api_stopPoll(self, params: dict[str, Any]) -> Any:
        self.close_due_polls()
        message = self._message(params)
        if message.poll is None:
            raise ApiError(400, "Bad Request: message with poll to stop not found")
        if message.poll["is_closed"]:
            raise ApiError(400, "Bad Request: poll has already been closed")
        self._check_group_rate(message.chat)
        message.poll["is_closed"] = True
        message.reply_markup = self._markup(params)
        message.edits += 1
        return message.poll

    async def _api_answerCallbackQuery(self, params: dict[str, Any]) -> Any:
        query_id = str(params.get("callback_query_id"))
        tapped_at = self._open_queries.get(query_id)
        max_age = self.strictness.callback_query_max_age
        if tapped_at is None or (max_age is not None and self.clock() - tapped_at > max_age):
            if tapped_at is not None and self.on_stale_callback is not None:
                self.on_stale_callback(query_id)
            raise ApiError(400, STALE_QUERY)
        if len(params.get("text") or "") > self.strictness.max_callback_answer:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        del self._open_queries[query_id]
        self.callback_answers[query_id] = {
            "text": params.get("text"),
            "show_alert": bool(params.get("show_alert")),
        }
        if self.on_callback_answer is not None:
            self.on_callback_answer(query_id)
        return True

    async def _api_getChat(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        gifts = dict.fromkeys(
            ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription",
             "gifts_from_channels"),
            False,
        )  # fmt: skip
        return {
            **chat.to_dict(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": gifts,
        }

    async def _api_getChatMember(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        user_id = int(params["user_id"])
        if user_id in chat.admins:
            status = "administrator"
        elif chat.members is None or user_id in chat.members:
            status = "member"
        else:
            status = "left"  # never joined, or left: Telegram says "left" for both
        user = {"id": user_id, "is_bot": False, "first_name": f"user{user_id}"}
        return self._member(chat, user, status)

    async def _api_getChatAdministrators(self, params: dict[str, Any]) -> Any:
        chat = self._chat(params)
        if chat.type == "private":
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        return [
            await self._api_getChatMember({**params, "user_id": admin})
            for admin in sorted(chat.admins)
        ]


class _WebhookDelivery:
    """Telegram's side of a webhook: each update POSTed to the URL given to setWebhook, with
    its secret token header, over at most `max_connections` connections at once (default
    40); an update the bot does not answer with 200 is sent again a little later."""

    RETRY_SECONDS = 0.5

    def __init__(self, params: dict[str, Any]) -> None:
        self._url = str(params["url"])
        secret = params.get("secret_token")
        self._headers = {"Content-Type": "application/json"}
        if secret is not None:
            self._headers["X-Telegram-Bot-Api-Secret-Token"] = str(secret)
        connections = int(params.get("max_connections") or 40)
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._session = ClientSession(connector=TCPConnector(limit=connections))
        self._workers = [
            asyncio.get_running_loop().create_task(self._deliver()) for _ in range(connections)
        ]

    def put(self, update: dict[str, Any]) -> None:
        self._queue.put_nowait(update)

    async def _deliver(self) -> None:
        while True:
            update = await self._queue.get()
            body = json.dumps(update)
            while True:
                try:
                    async with self._session.post(
                        self._url, data=body, headers=self._headers
                    ) as response:
                        if response.status == 200:
                            break
                except (ClientError, OSError):
                    pass
                await asyncio.sleep(self.RETRY_SECONDS)  # Telegram's retry, not a test waiting

    async def stop(self) -> None:
        for worker in self._workers:
            worker.cancel()
        await asyncio.gather(*self._workers, return_exceptions=True)
        await self._session.close()


# ChatAdministratorRights: the fields every such object carries, and those it may
ADMIN_RIGHTS_REQUIRED = (
    "is_anonymous", "can_manage_chat", "can_delete_messages", "can_manage_video_chats",
    "can_restrict_members", "can_promote_members", "can_change_info", "can_invite_users",
    "can_post_stories", "can_edit_stories", "can_delete_stories",
)  # fmt: skip
ADMIN_RIGHTS_OPTIONAL = (
    "can_post_messages", "can_edit_messages", "can_pin_messages", "can_manage_topics",
    "can_manage_direct_messages", "can_manage_tags",
)  # fmt: skip
REQUEST_CHAT_FLAGS = (
    "chat_is_forum", "chat_has_username", "chat_is_created", "bot_is_member", "request_title",
    "request_username", "request_photo",
)  # fmt: skip
KEYBOARD_ACTIONS = (
    "request_users", "request_chat", "request_contact", "request_location", "request_poll",
    "web_app",
)  # fmt: skip


def _unparsable(field: str, kind: str) -> ApiError:
    return ApiError(
        400, f'Bad Request: can\'t parse keyboard button: Field "{field}" must be of type {kind}'
    )


def _check_reply_keyboard(markup: dict[str, Any], chat: Chat | None) -> None:
    """A reply keyboard as Telegram checks it: rows of buttons with a text, at most one action
    each; a chat-picking button (`request_chat`) only in a private chat, its fields typed as
    KeyboardButtonRequestChat's, its `request_id` a signed 32-bit number unique in the
    keyboard, and its rights whole ChatAdministratorRights objects."""
    rows = markup.get("keyboard")
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
    ids: set[int] = set()
    for button in (b for row in rows for b in row):
        if isinstance(button, str):
            button = {"text": button}
        text = button.get("text") if isinstance(button, dict) else None
        if not isinstance(text, str) or not text:
            raise _unparsable("text", "String")
        actions = [key for key in KEYBOARD_ACTIONS if key in button]
        if len(actions) > 1:
            raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
        request = button.get("request_chat")
        if request is None:
            continue
        if chat is not None and chat.type != "private":
            raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")  # private chats only
        if not isinstance(request, dict):
            raise _unparsable("request_chat", "Object")
        number = request.get("request_id")
        if type(number) is not int or not -(2**31) <= number < 2**31:
            raise _unparsable("request_id", "Integer")
        if number in ids:
            raise ApiError(400, "Bad Request: BUTTON_ID_INVALID")
        ids.add(number)
        if type(request.get("chat_is_channel")) is not bool:
            raise _unparsable("chat_is_channel", "Boolean")
        for flag in REQUEST_CHAT_FLAGS:
            if flag in request and type(request[flag]) is not bool:
                raise _unparsable(flag, "Boolean")
        for side in ("user_administrator_rights", "bot_administrator_rights"):
            if side in request:
                _check_rights(request[side], side)
        known = {"request_id", "chat_is_channel", *REQUEST_CHAT_FLAGS}
        known |= {"user_administrator_rights", "bot_administrator_rights"}
        if set(request) - known:
            raise ApiError(400, "Bad Request: can't parse keyboard button: unknown field")


def _check_rights(rights: Any, field: str) -> None:
    if not isinstance(rights, dict):
        raise _unparsable(field, "Object")
    for name in ADMIN_RIGHTS_REQUIRED:
        if type(rights.get(name)) is not bool:
            raise _unparsable(name, "Boolean")
    for name in ADMIN_RIGHTS_OPTIONAL:
        if name in rights and type(rights[name]) is not bool:
            raise _unparsable(name, "Boolean")


def _granted(rights: dict[str, Any]) -> set[str]:
    """The rights an administrator-rights object asks for (those set to true)."""
    return {name for name, value in rights.items() if value is True and name != "is_anonymous"}


def _open_period(params: dict[str, Any]) -> int | None:
    """A poll's own timer as Telegram takes it: 5 to 600 seconds, never with `close_date`."""
    raw = params.get("open_period")
    if raw is None:
        return None
    if params.get("close_date") is not None:
        raise ApiError(400, "Bad Request: can't use open_period and close_date together")
    try:
        period = int(raw)
    except (TypeError, ValueError):
        raise ApiError(400, "Bad Request: wrong open period specified") from None
    if not 5 <= period <= 600:
        raise ApiError(400, "Bad Request: wrong open period specified")
    return period


def _other_action(button: dict[str, Any]) -> bool:
    """A button whose action is neither callback data nor a URL (a web app, an inline query):
    the stand-in takes them as they are."""
    return any(
        key in button
        for key in ("web_app", "login_url", "switch_inline_query", "switch_inline_query_current_chat",
                    "switch_inline_query_chosen_chat", "copy_text", "callback_game", "pay")
    )  # fmt: skip


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _gone(request: web.Request) -> bool:
    """Whether the client closed the connection: it stopped waiting for the answer."""
    transport = request.transport
    return transport is None or transport.is_closing()


def _caller_port(request: web.Request) -> int | None:
    """The port of the caller's side of the connection."""
    peer = request.transport.get_extra_info("peername") if request.transport else None
    return int(peer[1]) if isinstance(peer, tuple) and len(peer) >= 2 else None


def poll_answer(poll_id: str, user: FakeUser, option: int | Sequence[int]) -> dict[str, Any]:
    """The `poll_answer` Telegram sends for a vote (Bot API 9.6 shape)."""
    options = [option] if isinstance(option, int) else list(option)
    return {
        "poll_id": poll_id,
        "user": user.to_dict(),
        "option_ids": options,
        "option_persistent_ids": [str(chosen) for chosen in options],
    }


def _correct_option_ids(params: dict[str, Any], count: int, multiple: bool) -> list[int]:
    """A quiz poll's right options (Bot API 9.6: `correct_option_ids`, "a list of
    monotonically increasing 0-based identifiers"; `correct_option_id` before it), refused
    as Telegram does: none, out of range, not increasing; several in a poll that does not
    allow multiple answers."""
    raw = params.get("correct_option_ids")
    ids = json.loads(raw) if isinstance(raw, str) else raw
    if ids is None and params.get("correct_option_id") is not None:
        ids = [params["correct_option_id"]]
    wrong = ApiError(400, "Bad Request: wrong correct option ID specified")
    if not isinstance(ids, list) or not ids:
        raise wrong
    try:
        found = [int(i) for i in ids]
    except (TypeError, ValueError):
        raise wrong from None
    increasing = all(a < b for a, b in itertools.pairwise(found))
    if not increasing or not all(0 <= i < count for i in found):
        raise wrong
    if len(found) > 1 and not multiple:
        raise ApiError(400, "Bad Request: several correct options need allows_multiple_answers")
    return found


async def _read_params(request: web.Request) -> dict[str, Any]:
    """PTB sends form fields, JSON-encoding the complex ones; multipart when a file goes along."""
    if request.content_type == "application/json":
        body = await request.json()
        return dict(body or {})
    params: dict[str, Any] = {}
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        async for part in reader:
            assert isinstance(part, BodyPartReader)  # the Bot API nests no multipart
            name = str(part.name)
            if part.filename:
                params[name] = {"filename": part.filename, "content": await part.read()}
            else:
                params[name] = _decode(name, await part.text())
        return params
    form = await request.post()
    for key, value in form.items():
        params[key] = _decode(key, str(value))
    return params


JSON_FIELDS = {
    "reply_markup", "commands", "scope", "entities", "caption_entities", "allowed_updates",
    "link_preview_options", "reply_parameters", "options", "media", "menu_button",
}  # fmt: skip


def _decode(name: str | None, value: str) -> Any:
    return json.loads(value) if name in JSON_FIELDS else value
