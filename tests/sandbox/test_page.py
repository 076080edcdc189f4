"""The sandbox page's JSON and event API (aiohttp's test client), over the stand-in and the
real bot: people send, tap, vote and upload; the event stream tells of new messages, edits,
deletions and toasts; other hosts and other origins are refused; bot text and names reach the
page as text, whatever they hold."""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest
from aiohttp import FormData
from aiohttp.test_utils import TestClient, TestServer
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.app import QuizApplication
from bot.config import Settings
from bot.dashboard.init_data import verify_init_data
from bot.sandbox import FakeBotApi, FakeUser
from bot.sandbox.web.cast import CAST, Cast, Person
from bot.sandbox.web.page import SandboxPage
from tests.support.harness import running_bot
from tests.support.page import TELEGRAM_TAGS, Events, bot_says, origin, post, tags_of, text_of

QUIZ_ID = "model-pipeline-parallelism"
HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script>'
HOSTILE_CAST = (*CAST, Person("mallory", FakeUser(1666, HOSTILE, "en"), "learner"))


@pytest.fixture
def cast(api: FakeBotApi) -> Cast:
    return Cast(api, HOSTILE_CAST)


@pytest.fixture
def sandbox_settings(settings: Settings, cast: Cast) -> Settings:
    return replace(settings, admin_ids=cast.bot_admin_ids)


@pytest.fixture
async def sandbox_bot(sandbox_settings: Settings) -> AsyncIterator[QuizApplication]:
    async with running_bot(sandbox_settings) as application:
        yield application


@pytest.fixture
async def client(api: FakeBotApi, cast: Cast) -> AsyncIterator[TestClient[Any, Any]]:
    page = SandboxPage(api, cast)
    async with TestClient(TestServer(page.application(), host="127.0.0.1")) as test_client:
        yield test_client


@pytest.fixture
async def events(client: TestClient[Any, Any]) -> AsyncIterator[Events]:
    response = await client.get("/api/events")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    stream = Events(response)
    assert (await stream.next())["kind"] == "state"
    yield stream
    response.close()


async def test_the_page_is_served_with_a_policy_that_runs_no_inline_script(
    client: TestClient[Any, Any],
) -> None:
    response = await client.get("/")
    assert response.status == 200
    page = await response.text()
    assert '<script src="/static/app.js"' in page
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    script = await (await client.get("/static/app.js")).text()
    assert (
        re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(", script) is None
    )
    assert (await client.get("/static/../server.py")).status == 404
    assert (await client.get("/static/cast.py")).status == 404


@pytest.mark.parametrize(
    "host",
    ["evil.example", "evil.example:{port}", "127.0.0.1:1", "localhost.evil.example:{port}", ""],
)
async def test_a_request_for_another_host_is_refused(
    client: TestClient[Any, Any], host: str
) -> None:
    response = await client.get("/api/state", headers={"Host": host.format(port=client.port)})
    assert response.status == 421
    assert (
        await client.get("/api/state", headers={"Host": f"localhost:{client.port}"})
    ).status == 200


@pytest.mark.parametrize("origin", [None, "http://evil.example", "null", "http://127.0.0.1:1"])
async def test_a_write_from_another_origin_changes_nothing(
    api: FakeBotApi, client: TestClient[Any, Any], origin: str | None
) -> None:
    headers = {} if origin is None else {"Origin": origin}
    body = {"person": "emma", "chat_id": 1002, "text": "/start"}
    response = await client.post("/api/send", json=body, headers=headers)
    assert response.status == 403
    upload = FormData({"person": "funmi", "chat_id": "1004", "caption": "/import"})
    upload.add_field("file", b"id: x\n", filename="x.yaml")
    assert (await client.post("/api/upload", data=upload, headers=headers)).status == 403
    assert api.messages == {}


async def test_bad_requests_are_refused_with_a_reason(
    api: FakeBotApi, client: TestClient[Any, Any]
) -> None:
    cases = [
        ({"person": "nobody", "chat_id": 1002, "text": "hi"}, "Choose who you are"),
        ({"person": "emma", "chat_id": 1001, "text": "hi"}, "not in that chat"),  # Adé's chat
        ({"person": "emma", "chat_id": 1002, "text": "   "}, "Type a message"),
        ({"person": "emma", "chat_id": 1002, "text": "x" * 4097}, "at most 4096"),
    ]
    for body, reason in cases:
        response = await client.post("/api/send", json=body, headers=origin(client))
        assert response.status == 400
        assert reason in (await response.json())["error"]
    tap = {"person": "emma", "chat_id": 1002, "message_id": 99, "data": "x"}
    response = await client.post("/api/tap", json=tap, headers=origin(client))
    assert response.status == 400
    assert api.messages == {}


async def test_a_quiz_answered_through_the_page_arrives_as_events(
    sandbox_bot: QuizApplication, client: TestClient[Any, Any], events: Events
) -> None:
    await post(client, "/api/send", {"person": "emma", "chat_id": 1002, "text": f"/quiz {QUIZ_ID}"})
    mine = await events.until(lambda e: e["kind"] == "message" and e["message"]["from"] == "emma")
    assert mine["message"]["text"] == [f"/quiz {QUIZ_ID}"]
    question = (await events.until(bot_says(1002, "Question 1 of 8")))["message"]
    assert "b" in tags_of(question["text"])  # the title, bold
    buttons = [b for row in question["buttons"] for b in row]
    assert len(buttons) == 4

    tapped = await post(
        client, "/api/tap",
        {"person": "emma", "chat_id": 1002, "message_id": question["message_id"], "data": buttons[0]["data"]},
    )  # fmt: skip
    assert tapped["query_id"]
    toast = await events.until(lambda e: e["kind"] == "toast")
    assert toast["person"] == "emma" and toast["alert"] is False
    assert toast["text"].startswith(("✅", "❌"))
    reveal = (await events.until(bot_says(1002, "💡", kind="edit")))["message"]
    assert reveal["message_id"] == question["message_id"] and reveal["buttons"] == []
    assert reveal["edited"] is True
    await events.until(bot_says(1002, "Question 2 of 8"))


async def test_a_deleted_message_is_taken_off_the_page(
    api: FakeBotApi, client: TestClient[Any, Any], events: Events
) -> None:
    async with Bot(api.token, base_url=api.base_url) as bot:
        sent = await bot.send_message(1003, "soon gone")
        await events.until(bot_says(1003, "soon gone"))
        await bot.delete_message(1003, sent.message_id)
    deleted = await events.until(lambda e: e["kind"] == "delete")
    assert (deleted["chat_id"], deleted["message_id"]) == (1003, sent.message_id)
    state = await (await client.get("/api/state")).json()
    assert "1003" not in state["chats"]


async def test_an_alert_reaches_the_person_who_tapped(
    api: FakeBotApi, client: TestClient[Any, Any], events: Events
) -> None:
    async with Bot(api.token, base_url=api.base_url) as bot:
        await bot.send_message(
            1001,
            "tap me",
            reply_markup={"inline_keyboard": [[{"text": "go", "callback_data": "go"}]]},
        )  # type: ignore[arg-type]
        message = (await events.until(bot_says(1001, "tap me")))["message"]
        tap = {"person": "ade", "chat_id": 1001, "message_id": message["message_id"], "data": "go"}
        query_id = (await post(client, "/api/tap", tap))["query_id"]
        await bot.answer_callback_query(query_id, "Stop right there", show_alert=True)
    alert = await events.until(lambda e: e["kind"] == "toast")
    assert alert == {"kind": "toast", "person": "ade", "text": "Stop right there", "alert": True}


async def test_a_hostile_name_and_bank_reach_the_page_astext_of(
    sandbox_bot: QuizApplication, client: TestClient[Any, Any], events: Events
) -> None:
    await post(client, "/api/send", {"person": "mallory", "chat_id": 1666, "text": "/start"})
    hello = (await events.until(bot_says(1666, "Quiz Tutor")))["message"]
    assert HOSTILE in text_of(hello["text"])  # shown, character for character
    assert tags_of(hello["text"]) <= TELEGRAM_TAGS

    bank = (
        f"id: hostile\ntitle: '{HOSTILE}'\nlevel: easy\nquestions:\n"
        f"  - id: q1\n    text: '<b>bold?</b> {HOSTILE}'\n"
        f"    options: ['<script>alert(3)</script>', '\"><img onerror=alert(4)>']\n"
        f"    answer: 0\n    explanation: '<a href=\"javascript:alert(5)\">x</a>'\n"
    )
    form = FormData({"person": "funmi", "chat_id": "1004", "caption": "/import"})
    form.add_field("file", bank.encode(), filename="hostile.yaml")
    response = await client.post("/api/upload", data=form, headers=origin(client))
    assert response.status == 200, await response.text()
    upload = await events.until(
        lambda e: e["kind"] == "message" and e["message"]["from"] == "funmi"
    )
    assert upload["message"]["document"]["file_name"] == "hostile.yaml"
    assert upload["message"]["caption"] == ["/import"]
    await events.until(bot_says(1004, "hostile"))  # the import's answer

    await post(client, "/api/send", {"person": "emma", "chat_id": 1002, "text": "/quiz hostile"})
    question = (await events.until(bot_says(1002, "bold?")))["message"]
    shown = text_of(question["text"])
    assert f"<b>bold?</b> {HOSTILE}" in shown and "<script>alert(3)</script>" in shown
    assert tags_of(question["text"]) <= TELEGRAM_TAGS
    labels = [b["text"] for row in question["buttons"] for b in row]
    assert any("<script>alert(3)</script>" in label for label in labels)
    right = next(b["data"] for row in question["buttons"] for b in row if "script" in b["text"])
    await post(
        client, "/api/tap",
        {"person": "emma", "chat_id": 1002, "message_id": question["message_id"], "data": right},
    )  # fmt: skip
    reveal = (await events.until(bot_says(1002, "javascript:", kind="edit")))["message"]
    links = [n for n in _walk(reveal["text"]) if isinstance(n, dict) and n["tag"] == "a"]
    assert links == []  # the explanation's "link" is text the bot escaped


def _walk(nodes: list[Any]) -> list[Any]:
    found = []
    for node in nodes:
        found.append(node)
        if isinstance(node, dict):
            found.extend(_walk(node["children"]))
    return found


async def test_a_document_the_bot_sends_can_be_downloaded(
    sandbox_bot: QuizApplication, client: TestClient[Any, Any], events: Events
) -> None:
    await post(
        client, "/api/send", {"person": "funmi", "chat_id": 1004, "text": f"/export {QUIZ_ID}"}
    )
    sent = await events.until(
        lambda e: (
            e["kind"] == "message" and e["message"]["from"] == "bot" and "document" in e["message"]
        )
    )
    document = sent["message"]["document"]
    assert document["file_name"].endswith(".yaml")
    response = await client.get(f"/api/files/{document['file_id']}")
    assert response.status == 200
    assert response.headers["Content-Type"] == "application/octet-stream"
    assert response.headers["Content-Disposition"].startswith("attachment;")
    assert f"id: {QUIZ_ID}" in (await response.read()).decode()
    assert (await client.get("/api/files/file-999")).status == 404


async def test_a_group_quiz_poll_is_voted_by_each_person(
    sandbox_bot: QuizApplication, client: TestClient[Any, Any], events: Events, cast: Cast
) -> None:
    group = cast.group.id
    await post(
        client,
        "/api/send",
        {"person": "chidi", "chat_id": group, "text": f"/groupquiz {QUIZ_ID} 30 poll"},
    )
    poll_message = (
        await events.until(lambda e: e["kind"] == "message" and "poll" in e["message"])
    )["message"]
    poll = poll_message["poll"]
    assert poll["type"] == "quiz" and poll["closed"] is False and poll["votes"] == {}
    vote = {"chat_id": group, "message_id": poll_message["message_id"], "option": 1}
    await post(client, "/api/vote", {"person": "emma", **vote})
    after = await events.until(lambda e: e["kind"] == "edit" and "poll" in e["message"])
    assert after["message"]["poll"]["votes"] == {"emma": [1]}
    assert after["message"]["poll"]["total"] == 1
    again = await client.post("/api/vote", json={"person": "emma", **vote}, headers=origin(client))
    assert again.status == 400 and "already" in (await again.json())["error"]
    await post(client, "/api/vote", {"person": "ade", **vote, "option": 0})
    await events.until(
        lambda e: e["kind"] == "edit" and e["message"].get("poll", {}).get("total") == 2
    )


async def test_the_state_lists_the_people_and_their_chats(
    client: TestClient[Any, Any], cast: Cast, tmp_path: Path
) -> None:
    state = await (await client.get("/api/state")).json()
    roles = {p["key"]: (p["language"], p["role"]) for p in state["people"]}
    assert roles["ade"] == ("yo", "learner, Yoruba") and roles["funmi"][1] == "bot admin"
    assert state["group"] == {"id": cast.group.id, "title": "Study group"}
    assert cast.bot_admin_ids == {1004}


async def test_a_web_app_button_opens_at_its_url_with_initdata_signed_for_the_person(
    api: FakeBotApi, client: TestClient[Any, Any], events: Events
) -> None:
    url = "https://quiz.example.org/app/"
    async with Bot(api.token, base_url=api.base_url) as bot:
        button = InlineKeyboardButton("Open", web_app=WebAppInfo(url))
        await bot.send_message(1002, "Your classes", reply_markup=InlineKeyboardMarkup([[button]]))
    shown = (await events.until(bot_says(1002, "Your classes")))["message"]
    assert shown["buttons"] == [[{"text": "Open", "web_app": url}]]

    opened = await post(
        client,
        "/api/web_app",
        {"person": "emma", "chat_id": 1002, "message_id": shown["message_id"], "url": url},
    )
    address, _, fragment = opened["url"].partition("#")
    launch = dict(parse_qsl(fragment, strict_parsing=True))
    assert address == url and launch["tgWebAppPlatform"] == "weba"
    person = verify_init_data(launch["tgWebAppData"], api.token, time.time())
    assert (person.id, person.first_name, person.language_code) == (1002, "Emma", "en")
    assert json.loads(launch["tgWebAppThemeParams"])["bg_color"] == "#ffffff"

    elsewhere = {"person": "emma", "chat_id": 1002, "message_id": shown["message_id"]}
    for body in ({**elsewhere, "url": "https://evil.example/app/"}, {**elsewhere, "url": 1}):
        refused = await client.post("/api/web_app", json=body, headers=origin(client))
        assert refused.status == 400
    not_hers = {**elsewhere, "person": "ade", "url": url}  # Adé's chat holds no such message
    assert (await client.post("/api/web_app", json=not_hers, headers=origin(client))).status == 400


async def test_a_person_picks_a_chat_for_push_through_the_page(
    sandbox_bot: QuizApplication, client: TestClient[Any, Any], events: Events, cast: Cast
) -> None:
    funmi = cast.people["funmi"].user.id  # the bot admin, an admin of the group and channel
    await post(
        client, "/api/send", {"person": "funmi", "chat_id": funmi, "text": f"/push {QUIZ_ID}"}
    )
    asked = (await events.until(bot_says(funmi, "Where should the next question")))["message"]
    keyboard = asked["reply_keyboard"]
    assert [[b["text"] for b in row] for row in keyboard] == [
        ["👥 Pick a group"], ["📣 Pick a channel"],
    ]  # fmt: skip
    groups, channels = (row[0] for row in keyboard)
    assert (groups["channel"], channels["channel"]) == (False, True)
    offered = await client.get(
        "/api/pickable", params={"person": "funmi", "request_id": str(channels["request_id"])}
    )
    assert (await offered.json())["chats"] == [
        {"id": cast.channel.id, "title": "Study news", "type": "channel"}
    ]
    # a chat the button does not offer is refused; so is another person's button
    wrong = {"person": "funmi", "request_id": channels["request_id"], "chat_id": cast.group.id}
    refused = await client.post("/api/pick", json=wrong, headers=origin(client))
    assert refused.status == 400 and "cannot be picked" in (await refused.json())["error"]
    other = {**wrong, "person": "emma", "chat_id": cast.channel.id}
    refused = await client.post("/api/pick", json=other, headers=origin(client))
    assert refused.status == 400 and "gone" in (await refused.json())["error"]

    await post(client, "/api/pick", {**wrong, "chat_id": cast.channel.id})
    await events.until(bot_says(cast.channel.id, "question 1 of 8"))
    done = (await events.until(bot_says(funmi, "posted to Study news")))["message"]
    assert done.get("remove_keyboard") is True


async def test_the_bots_own_deep_link_opens_inside_the_page(
    sandbox_bot: QuizApplication, client: TestClient[Any, Any], events: Events, cast: Cast
) -> None:
    emma = cast.people["emma"].user.id
    link = f"https://t.me/{cast_bot(client)}?start=quiz-{QUIZ_ID}"
    await post(client, "/api/open", {"person": "emma", "url": link})
    await events.until(bot_says(emma, "Question 1 of 8"))
    elsewhere = await client.post(
        "/api/open", json={"person": "emma", "url": "https://t.me/other_bot?start=x"},
        headers=origin(client),
    )  # fmt: skip
    assert elsewhere.status == 400


def cast_bot(client: TestClient[Any, Any]) -> str:
    return "quiz_tutor_bot"


async def test_a_person_votes_several_options_of_a_quiz_poll_that_takes_them(
    api: FakeBotApi, client: TestClient[Any, Any], events: Events, cast: Cast
) -> None:
    group = cast.group.id
    async with Bot(api.token, base_url=api.base_url) as bot:
        sent = await bot.send_poll(
            group, "Which are prime?", ["2", "4", "5"], type="quiz", is_anonymous=False,
            allows_multiple_answers=True, correct_option_ids=[0, 2],
        )  # fmt: skip
    shown = await events.until(lambda e: e["kind"] == "message" and "poll" in e["message"])
    assert shown["message"]["poll"]["multiple"] is True
    assert shown["message"]["poll"]["correct"] == [0, 2]
    vote = {"chat_id": group, "message_id": sent.message_id}
    await post(client, "/api/vote", {"person": "emma", **vote, "options": [2, 0]})
    after = await events.until(lambda e: e["kind"] == "edit" and "poll" in e["message"])
    assert after["message"]["poll"]["votes"] == {"emma": [0, 2]}
    for wrong in ([], [0, 0], [5], ["0"]):
        refused = await client.post(
            "/api/vote", json={"person": "ade", **vote, "options": wrong}, headers=origin(client)
        )
        assert refused.status == 400, wrong


async def test_an_event_stream_that_stops_reading_is_dropped_not_fed_forever(
    api: FakeBotApi, cast: Cast
) -> None:
    page = SandboxPage(api, cast, max_behind=5)
    async with TestClient(TestServer(page.application(), host="127.0.0.1")) as client:
        response = await client.get("/api/events")
        stalled = Events(response)
        assert (await stalled.next())["kind"] == "state"  # then it reads no more
        assert page.listeners == 1
        for n in range(20):
            page.show_content_errors({f"bank{n}.yaml": ["bad"]})  # an event each
        assert page.listeners == 0
        response.close()
        reader = Events(await client.get("/api/events"))  # a page that comes back
        assert (await reader.next())["kind"] == "state"
