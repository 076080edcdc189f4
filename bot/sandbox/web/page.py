"""The chat page of the sandbox and its JSON/event API, over the Bot API stand-in.

The page acts as the people (`/api/send`, `/api/tap`, `/api/vote`, `/api/upload`, `/api/pick`,
`/api/open`: the stand-in's own `send_text`, `tap`, `vote`, `upload`, `share_chat`,
`open_link`; `/api/pickable` lists the chats a chat-picking button offers) and watches the
chats through
`/api/events`, server-sent events: the whole state first, then each new message, edit,
deletion, toast and content report as it happens. What happened is found by comparing the
stand-in's messages after every Bot API call with what the page was last told, so the
stand-in needs no hook for the page.

It serves 127.0.0.1 only and answers only requests addressed to it by name (`Host`
127.0.0.1 or localhost at its port: 421 otherwise, against DNS rebinding); every write
must come from the page itself (`Origin`: 403 otherwise). The page's script draws bot text
from a tree of nodes, never as HTML, under a Content-Security-Policy with no inline script.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any

from aiohttp import BodyPartReader, web
from aiohttp.typedefs import Handler

from bot.sandbox.server import FakeBotApi, Message
from bot.sandbox.web.cast import Cast, Person
from bot.sandbox.web.views import fingerprint, image_type, message_view, web_app_urls
from bot.sandbox.web_app import DARK_THEME, LIGHT_THEME, launch_url, sign_init_data

log = logging.getLogger(__name__)

STATIC = {"index.html": "text/html", "app.js": "text/javascript", "app.css": "text/css"}
LOCAL_NAMES = {"127.0.0.1", "localhost"}
MAX_UPLOAD = 20 * 1024 * 1024  # what a bot may download from Telegram
MAX_TEXT = 4096
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
HEARTBEAT_SECONDS = 15.0
MAX_EVENTS_BEHIND = 1000  # a page that stops reading is dropped (it reconnects to the state)
MINI_APP_PREFIX = "/app"  # where a Mini App mounted beside the page is served (`mount`)

MiniApp = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Refused(Exception):
    """A request the page cannot carry out: 400 with this message."""


class SandboxPage:
    def __init__(self, api: FakeBotApi, cast: Cast, max_behind: int = MAX_EVENTS_BEHIND) -> None:
        self.api = api
        self.cast = cast
        self.max_behind = max_behind  # events a stream may owe its reader before it is dropped
        self.content_errors: dict[str, list[str]] = {}
        self.votes: dict[str, dict[str, list[int]]] = {}  # poll id -> person key -> options
        self._taps: dict[str, str] = {}  # callback query id -> the person who tapped
        self._shown: dict[tuple[int, int], tuple[Any, ...]] = {}  # message -> fingerprint
        self._answers_seen: set[str] = set()
        self._calls_seen = -1
        self._streams: set[asyncio.Queue[dict[str, Any] | None]] = set()
        self._watcher: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        self._mini_app: MiniApp | None = None
        self.port = 0

    def mount(self, mini_app: MiniApp) -> None:
        """Serve a Mini App under `/app/` beside the page: same origin, so the page can frame
        it, as a Telegram client frames a Mini App. Its responses keep their own headers."""
        self._mini_app = mini_app

    @property
    def mini_app_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{MINI_APP_PREFIX}/"

    # lifecycle

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_UPLOAD + 64 * 1024, middlewares=[self._guard])
        app.router.add_get("/", self._index)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/events", self._events)
        app.router.add_get("/api/files/{file_id}", self._file)
        app.router.add_post("/api/send", self._send)
        app.router.add_post("/api/tap", self._tap)
        app.router.add_post("/api/vote", self._vote)
        app.router.add_post("/api/upload", self._upload)
        app.router.add_post("/api/web_app", self._web_app)
        app.router.add_route("*", MINI_APP_PREFIX, self._serve_mini_app)
        app.router.add_route("*", MINI_APP_PREFIX + "/{tail:.*}", self._serve_mini_app)
        app.router.add_get("/api/pickable", self._pickable)
        app.router.add_post("/api/pick", self._pick)
        app.router.add_post("/api/open", self._open)
        app.on_startup.append(self._start_watching)
        app.on_shutdown.append(self._stop_watching)
        return app

    async def start(self, port: int) -> None:
        """Serve on 127.0.0.1 at `port` (0: any free port; read `port` after)."""
        self._runner = web.AppRunner(self.application(), access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", port).start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _start_watching(self, app: web.Application) -> None:
        self.refresh()
        self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _stop_watching(self, app: web.Application) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        for stream in self._streams:
            stream.put_nowait(None)  # ends each event stream

    async def _watch(self) -> None:
        """After every Bot API call, tell the page what changed."""
        while True:
            with contextlib.suppress(AssertionError):  # an hour without a call
                await self.api.wait_for(lambda: len(self.api.calls) != self._calls_seen, 3600)
            self.refresh()

    # what the page is told

    def show_content_errors(self, errors: dict[str, list[str]]) -> None:
        """The banks of `--content` that failed validation, by file, with their errors."""
        self.content_errors = {name: list(found) for name, found in errors.items()}
        self._broadcast({"kind": "content", "errors": self.content_errors})

    def refresh(self) -> None:
        """Compare the stand-in's chats with what the page was told; send the differences."""
        self._calls_seen = len(self.api.calls)
        current = {key: fingerprint(message) for key, message in self._visible_messages()}
        for key in sorted(current):
            if key not in self._shown:
                self._broadcast({"kind": "message", "message": self._view(key)})
            elif current[key] != self._shown[key]:
                self._broadcast({"kind": "edit", "message": self._view(key)})
        for chat_id, message_id in sorted(set(self._shown) - set(current)):
            self._broadcast({"kind": "delete", "chat_id": chat_id, "message_id": message_id})
        self._shown = current
        for query_id, answer in list(self.api.callback_answers.items()):
            if query_id in self._answers_seen or query_id not in self._taps:
                continue
            self._answers_seen.add(query_id)
            self._broadcast(
                {
                    "kind": "toast",
                    "person": self._taps[query_id],
                    "text": answer.get("text") or "",
                    "alert": bool(answer.get("show_alert")),
                }
            )

    def _visible_messages(self) -> list[tuple[tuple[int, int], Message]]:
        chats = {self.cast.group.id, self.cast.channel.id}
        chats |= {p.user.id for p in self.cast.people.values()}
        return [(key, m) for key, m in self.api.messages.items() if key[0] in chats]

    def _view(self, key: tuple[int, int]) -> dict[str, Any]:
        return message_view(self.api.messages[key], self.cast, self.votes)

    def snapshot(self) -> dict[str, Any]:
        chats: dict[str, list[dict[str, Any]]] = {}
        for key, _ in sorted(self._visible_messages()):
            chats.setdefault(str(key[0]), []).append(self._view(key))
        return {
            "kind": "state",
            "bot": {
                "name": self.api.bot_user["first_name"],
                "username": self.api.bot_user.get("username"),
            },
            "people": [p.to_dict() for p in self.cast.people.values()],
            "group": {"id": self.cast.group.id, "title": self.cast.group.title},
            "channel": {"id": self.cast.channel.id, "title": self.cast.channel.title},
            "chats": chats,
            "content_errors": self.content_errors,
        }

    @property
    def listeners(self) -> int:
        """The event streams open now."""
        return len(self._streams)

    def _broadcast(self, event: dict[str, Any]) -> None:
        """Queue the event for every page; a stream whose reader fell `max_behind` events
        behind (a page that stopped reading) is ended instead of holding every later event:
        its queue is emptied and told to end, and a page that wakes up reconnects."""
        for stream in list(self._streams):
            try:
                stream.put_nowait(event)
            except asyncio.QueueFull:
                self._streams.discard(stream)
                while not stream.empty():
                    stream.get_nowait()
                stream.put_nowait(None)
                log.info("an event stream %d events behind was dropped", self.max_behind)

    # the guard

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not _addressed_to_us(request):
            return web.Response(status=421, text="This server answers to 127.0.0.1 only.\n")
        if request.method not in ("GET", "HEAD") and not self._same_origin(request):
            return _error(403, "Writes are taken from the sandbox page only (Origin).")
        try:
            response = await handler(request)
        except Refused as refusal:
            response = _error(400, str(refusal))
        if self._mini_app is not None and _under(request.path, MINI_APP_PREFIX):
            return response  # the Mini App's own headers: its CSP lets the page frame it
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    def _same_origin(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        return origin is not None and origin == f"http://{request.headers.get('Host', '')}"

    # the page

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return _static_file("index.html")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return _static_file(name)

    async def _state(self, request: web.Request) -> web.StreamResponse:
        return web.json_response(self.snapshot())

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        )
        for name, value in SECURITY_HEADERS.items():
            response.headers[name] = value
        await response.prepare(request)
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(self.max_behind)
        self._streams.add(queue)
        try:
            await _write_event(response, self.snapshot())
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if event is None:
                    break
                await _write_event(response, event)
        except ConnectionResetError:
            pass  # the page was closed
        finally:
            self._streams.discard(queue)
        return response

    async def _file(self, request: web.Request) -> web.StreamResponse:
        found = self.api.files.get(request.match_info["file_id"])
        if found is None:
            raise web.HTTPNotFound()
        path, content = found
        name = re.sub(r"^file_\d+_", "", path.rsplit("/", 1)[-1]) or "document"
        kind = image_type(content)
        disposition = "inline" if kind and request.query.get("view") == "1" else "attachment"
        safe_name = re.sub(r"[^\w.\- ]", "_", name)
        return web.Response(
            body=content,
            headers={
                "Content-Type": kind
                if disposition == "inline" and kind
                else "application/octet-stream",
                "Content-Disposition": f'{disposition}; filename="{safe_name}"',
            },
        )

    # acting as the people

    async def _send(self, request: web.Request) -> web.StreamResponse:
        body = await _json(request)
        person, chat_id = self._speaker(body)
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise Refused("Type a message first.")
        if len(text) > MAX_TEXT:
            raise Refused(f"A message holds at most {MAX_TEXT} characters.")
        reply_to = self._reply_to(chat_id, body.get("reply_to"))
        if chat_id == self.cast.channel.id:
            if person.user.id not in self.cast.channel.admins:
                raise Refused("Only the channel's admins post in it.")
            message = self.api.post_in_channel(self.cast.channel, text)
        else:
            message = self.api.send_text(
                person.user, text, chat=self.api.chats[chat_id], reply_to=reply_to
            )
        self.refresh()
        return web.json_response({"message_id": message.message_id})

    async def _tap(self, request: web.Request) -> web.StreamResponse:
        body = await _json(request)
        person, chat_id = self._speaker(body)
        message = self._message(chat_id, body.get("message_id"))
        data = body.get("data")
        if not isinstance(data, str) or data not in message.button_data():
            raise Refused("That message has no such button (any more).")
        query_id = self.api.tap(person.user, message, data)
        self._taps[query_id] = person.key
        return web.json_response({"query_id": query_id})

    async def _vote(self, request: web.Request) -> web.StreamResponse:
        body = await _json(request)
        person, chat_id = self._speaker(body)
        message = self._message(chat_id, body.get("message_id"))
        poll = message.poll
        chosen = body.get("options", [body.get("option")])
        if (
            poll is None
            or not isinstance(chosen, list)
            or not chosen
            or len(set(map(str, chosen))) != len(chosen)
            or not all(type(o) is int and 0 <= o < len(poll["options"]) for o in chosen)
        ):
            raise Refused("That message has no such poll option.")
        if len(chosen) > 1 and not poll["allows_multiple_answers"]:
            raise Refused("This poll takes one option.")
        self.api.close_due_polls()
        if poll["is_closed"]:
            raise Refused("The poll is closed.")
        if person.key in self.votes.get(poll["id"], {}):
            raise Refused("You have voted in this poll already.")
        self.api.vote(person.user, message, sorted(chosen))
        self.votes.setdefault(poll["id"], {})[person.key] = sorted(chosen)
        self.refresh()
        return web.json_response({"ok": True})

    async def _serve_mini_app(self, request: web.Request) -> web.StreamResponse:
        if self._mini_app is None:
            raise web.HTTPNotFound()
        return await self._mini_app(request)

    async def _web_app(self, request: web.Request) -> web.StreamResponse:
        """A person opens a message's `web_app` button: the address their Telegram client would
        open, with initData signed for them with the bot's token."""
        body = await _json(request)
        person, chat_id = self._speaker(body)
        message = self._message(chat_id, body.get("message_id"))
        url = body.get("url")
        if not isinstance(url, str) or url not in web_app_urls(message):
            raise Refused("That message has no such Mini App button (any more).")
        user = person.user
        signed = {"id": user.id, "first_name": user.first_name, "allows_write_to_pm": True}
        if user.language_code:
            signed["language_code"] = user.language_code
        init_data = sign_init_data(signed, self.api.token, int(time.time()))
        theme = DARK_THEME if body.get("theme") == "dark" else LIGHT_THEME
        return web.json_response({"url": launch_url(url, init_data, theme)})

    async def _upload(self, request: web.Request) -> web.StreamResponse:
        if not request.content_type.startswith("multipart/"):
            raise Refused("Send the file as multipart/form-data.")
        fields: dict[str, str] = {}
        upload: tuple[str, bytes] | None = None
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                raise Refused("Nested multipart is not taken.")
            if part.name == "file" and part.filename:
                upload = (part.filename, await part.read())
            elif part.name in ("person", "chat_id", "caption"):
                fields[part.name] = await part.text()
        if upload is None or not upload[1]:
            raise Refused("Choose a file to send.")
        person, chat_id = self._speaker(fields)
        name, content = upload
        message = self.api.upload(
            person.user,
            content,
            name.rsplit("/", 1)[-1][:200],
            caption=fields.get("caption") or None,
            chat=self.api.chats[chat_id],
        )
        self.refresh()
        return web.json_response({"message_id": message.message_id})

    def _speaker(self, body: dict[str, Any]) -> tuple[Person, int]:
        person = self.cast.people.get(str(body.get("person")))
        if person is None:
            raise Refused("Choose who you are first.")
        try:
            chat_id = int(body.get("chat_id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise Refused("Choose a chat first.") from None
        if chat_id not in (person.user.id, self.cast.group.id, self.cast.channel.id):
            raise Refused(f"{person.user.first_name} is not in that chat.")
        return person, chat_id

    async def _open(self, request: web.Request) -> web.StreamResponse:
        """A person opens one of the bot's own `t.me` links: inside the page, as Telegram's
        apps open them (`/start <payload>` from them in their private chat)."""
        body = await _json(request)
        person = self.cast.people.get(str(body.get("person")))
        if person is None:
            raise Refused("Choose who you are first.")
        url = body.get("url")
        username = self.api.bot_user.get("username")
        if not isinstance(url, str) or not url.startswith(f"https://t.me/{username}"):
            raise Refused("That is not a link of this bot.")
        if url == f"https://t.me/{username}":
            message = self.api.send_text(person.user, "/start")
        else:
            try:
                message = self.api.open_link(person.user, url)
            except AssertionError:
                raise Refused("That is not a link of this bot.") from None
        self.refresh()
        return web.json_response({"message_id": message.message_id})

    def _chat_button(self, person: Person, request_id: Any) -> dict[str, Any]:
        """The request of a chat-picking button shown in the person's private chat now."""
        for button in self.api.chat_buttons(person.user):
            request: dict[str, Any] = button["request_chat"]
            if request["request_id"] == request_id:
                return request
        raise Refused("That button is gone.")

    async def _pickable(self, request: web.Request) -> web.StreamResponse:
        person = self.cast.people.get(request.query.get("person", ""))
        if person is None:
            raise Refused("Choose who you are first.")
        try:
            request_id = int(request.query.get("request_id", ""))
        except ValueError:
            raise Refused("Which button?") from None
        wanted = self._chat_button(person, request_id)
        chats = [
            {"id": chat.id, "title": chat.title or str(chat.id), "type": chat.type}
            for chat in self.api.pickable(person.user, wanted)
        ]
        return web.json_response({"chats": chats})

    async def _pick(self, request: web.Request) -> web.StreamResponse:
        body = await _json(request)
        person = self.cast.people.get(str(body.get("person")))
        if person is None:
            raise Refused("Choose who you are first.")
        wanted = self._chat_button(person, body.get("request_id"))
        picked = body.get("chat_id")
        chat = self.api.chats.get(picked) if isinstance(picked, int) else None
        if chat is None or chat not in self.api.pickable(person.user, wanted):
            raise Refused("That chat cannot be picked with this button.")
        button = next(
            b["text"]
            for b in self.api.chat_buttons(person.user)
            if b["request_chat"]["request_id"] == wanted["request_id"]
        )
        message = self.api.share_chat(person.user, chat, button)
        self.refresh()
        return web.json_response({"message_id": message.message_id})

    def _message(self, chat_id: int, message_id: Any) -> Message:
        message = self.api.messages.get((chat_id, message_id if isinstance(message_id, int) else 0))
        if message is None:
            raise Refused("That message is gone.")
        return message

    def _reply_to(self, chat_id: int, message_id: Any) -> Message | None:
        return None if message_id is None else self._message(chat_id, message_id)


def _addressed_to_us(request: web.Request) -> bool:
    """The Host header names this server: 127.0.0.1 or localhost, at the port it serves."""
    match = re.fullmatch(r"([A-Za-z0-9.-]+)(?::(\d{1,5}))?", request.headers.get("Host", ""))
    if match is None or match.group(1).lower() not in LOCAL_NAMES:
        return False
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    return sockname is not None and int(match.group(2) or 80) == sockname[1]


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix + "/")


def _static_file(name: str) -> web.Response:
    content = (files("bot.sandbox.web") / "static" / name).read_bytes()
    return web.Response(
        body=content,
        headers={"Content-Type": f"{STATIC[name]}; charset=utf-8", "Cache-Control": "no-store"},
    )


async def _json(request: web.Request) -> dict[str, Any]:
    if request.content_type != "application/json":
        raise Refused("Send JSON (application/json).")
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise Refused("The body is not JSON.") from None
    if not isinstance(body, dict):
        raise Refused("The body must be a JSON object.")
    return body


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=SECURITY_HEADERS)


async def _write_event(response: web.StreamResponse, event: dict[str, Any]) -> None:
    data = json.dumps(event, ensure_ascii=False)
    await response.write(f"data: {data}\n\n".encode())
