"""The dashboard end to end: the real Application, the stand-in as Telegram, the dashboard's
own listener on 127.0.0.1, requests signed as Telegram signs a Mini App's initData."""

from __future__ import annotations

import re
from dataclasses import replace

import aiohttp

from bot.config import Settings
from bot.sandbox import FakeBotApi
from bot.sandbox.web_app import sign_init_data
from tests.support.dashboard import APP_URL, Browser, Clock, dashboard, play_a_quiz
from tests.support.room import ADA, BO, CY, GROUP_ID, Room

OTHER_GROUP = -100999


async def test_dashboard_in_private_gives_a_web_app_button_and_in_a_group_points_there(
    api: FakeBotApi, app_settings: Settings, room: Room, clock: Clock
) -> None:
    async with dashboard(app_settings, clock):
        await room.say(ADA, "/dashboard", "opens in my private chat")  # the group's admin
        private = api.private_chat(ADA)
        api.send_text(ADA, "/dashboard", private)
        message = await api.wait_for_bot_message(private.id, "at a glance")
        assert message.buttons == [{"text": "📊 Open the dashboard", "web_app": {"url": APP_URL}}]
        api.send_text(BO, "/dashboard", api.private_chat(BO))  # no chat's admin: told how
        await api.wait_for_bot_message(BO.id, "add me to your group or channel")


async def test_the_page_is_served_with_its_policy_and_no_inline_script(
    api: FakeBotApi, app_settings: Settings, clock: Clock
) -> None:
    async with dashboard(app_settings, clock) as (_, listener):
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{listener.port}/app/") as response:
                page = await response.text()
                policy = response.headers["Content-Security-Policy"]
            async with session.get(f"http://127.0.0.1:{listener.port}/app/static/../x") as bad:
                assert bad.status == 404
            async with session.post(f"http://127.0.0.1:{listener.port}/app/api/chats") as post:
                assert post.status == 405
        assert "script-src 'self' https://telegram.org;" in policy
        assert "frame-ancestors https://web.telegram.org" in policy
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
        assert scripts and all(
            "src=" in attributes and not body.strip() for attributes, body in scripts
        )


async def test_requests_without_good_initdata_are_refused(
    api: FakeBotApi, app_settings: Settings, clock: Clock
) -> None:
    async with dashboard(app_settings, clock) as (_, listener):
        ada = Browser(listener, api, ADA, clock)
        assert (await ada.get("api/me"))[0] == 200
        assert (await ada.get("api/me", init_data=""))[0] == 401
        forged = sign_init_data({"id": ADA.id, "first_name": "Ada"}, "1:OTHER", int(clock.now))
        assert (await ada.get("api/chats", init_data=forged))[0] == 401
        clock.now += 24 * 3600 + 1
        assert (await ada.get("api/chats"))[0] == 401


async def test_an_admin_sees_her_class_and_its_grid_and_nobody_else_does(
    api: FakeBotApi, app_settings: Settings, room: Room, clock: Clock
) -> None:
    api.group(OTHER_GROUP, "other", admins={CY.id})
    async with dashboard(app_settings, clock) as (_, listener):
        await play_a_quiz(api, room)
        ada, bo, cy = (Browser(listener, api, who, clock) for who in (ADA, BO, CY))

        status, chats = await ada.get("api/chats")
        assert status == 200 and chats == [{"id": GROUP_ID, "title": "study", "type": "supergroup"}]
        status, overview = await ada.get(f"api/chats/{GROUP_ID}")
        assert [s["quiz"] for s in overview["sessions"]] == ["tiny"]
        status, grid = await ada.get(f"api/chats/{GROUP_ID}/grid?quiz=tiny")
        assert status == 200
        assert [q["number"] for q in grid["questions"]] == [1]
        rows = {learner["name"]: learner["marks"] for learner in grid["learners"]}
        assert rows == {"Bo": [1.0], "<Cy & Co>": [0.0]}

        assert (await bo.get("api/chats"))[1] == []
        assert (await bo.get(f"api/chats/{GROUP_ID}/grid?quiz=tiny"))[0] == 403
        # an admin of another group asks for this one's grid
        assert (await cy.get(f"api/chats/{GROUP_ID}/grid?quiz=tiny"))[0] == 403
        assert (await ada.get(f"api/chats/{OTHER_GROUP}"))[0] == 403
        assert (await ada.get(f"api/chats/{GROUP_ID}/grid?quiz=nosuch"))[0] == 404


async def test_a_demoted_admin_loses_the_class_once_the_cache_runs_out(
    api: FakeBotApi, app_settings: Settings, room: Room, clock: Clock
) -> None:
    async with dashboard(app_settings, clock) as (_, listener):
        await play_a_quiz(api, room)
        ada = Browser(listener, api, ADA, clock)
        assert (await ada.get(f"api/chats/{GROUP_ID}"))[0] == 200
        room.chat.admins.discard(ADA.id)
        assert (await ada.get(f"api/chats/{GROUP_ID}"))[0] == 200  # within the minute
        clock.now += 61
        ada = Browser(listener, api, ADA, clock)
        assert (await ada.get(f"api/chats/{GROUP_ID}"))[0] == 403


async def test_a_bot_admin_sees_every_class_and_a_fast_client_is_slowed(
    api: FakeBotApi, app_settings: Settings, room: Room, clock: Clock
) -> None:
    settings = replace(app_settings, admin_ids=frozenset({BO.id}))
    async with dashboard(settings, clock) as (_, listener):
        await play_a_quiz(api, room)
        bo = Browser(listener, api, BO, clock)
        assert [chat["id"] for chat in (await bo.get("api/chats"))[1]] == [GROUP_ID]
        statuses = [(await bo.get("api/me"))[0] for _ in range(40)]
        assert statuses.count(429) >= 5 and statuses[0] == 200


async def test_the_language_follows_the_choice(
    api: FakeBotApi, app_settings: Settings, clock: Clock
) -> None:
    async with dashboard(app_settings, clock) as (_, listener):
        ada = Browser(listener, api, ADA, clock)
        _, english = await ada.get("api/me")
        _, yoruba = await ada.get("api/me?lang=yo")
        assert english["language"] == "en" and yoruba["language"] == "yo"
        assert english["strings"]["app_title"] != yoruba["strings"]["app_title"]
        assert {"code": "yo", "name": "Yorùbá"} in english["languages"]
