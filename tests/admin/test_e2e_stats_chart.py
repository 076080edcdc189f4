"""`/stats` sends a chart of the share of right answers per question, hardest first."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import running_bot
from tests.support.learner import Learner

ADMIN = FakeUser(5201, "Ada")


async def test_stats_has_a_chart_once_there_are_answers(
    api: FakeBotApi, settings: Settings
) -> None:
    admin = Learner(api, ADMIN)
    async with running_bot(replace(settings, admin_ids=frozenset({ADMIN.id}))):
        await admin.send("/stats", "Statistics")
        await admin.send("/help", "/whoami")  # what /stats sent came before
        assert not any(m.photo for m in admin.messages())  # nothing answered: no chart
        question = await admin.send("/quiz model-pipeline-parallelism", "Question 1 of 8")
        await admin.tap(question, question.button_data()[0])
        seen = len(admin.messages())
        api.send_text(ADMIN, "/stats")
        chart = await api.wait_for(
            lambda: next((m for m in admin.messages()[seen:] if m.photo), None)
        )
        assert chart.caption is not None
        assert "hardest is question 1" in chart.caption
        with Image.open(
            io.BytesIO(api.file_content(chart.photo[-1] if chart.photo else {}))
        ) as image:
            assert image.format == "PNG" and image.size[0] == 900
