"""`/progress` sends a chart besides its text once there is something to draw."""

from __future__ import annotations

import io

from PIL import Image

from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.harness import running_bot
from tests.support.learner import Learner

QUIZ = "model-pipeline-parallelism"


async def test_progress_has_a_chart_once_the_learner_answered(
    api: FakeBotApi, settings: Settings
) -> None:
    learner = Learner(api, FakeUser(5101, "Ṣadé", "yo"))
    async with running_bot(settings):
        await learner.send("/start", "Quiz Tutor")
        await learner.send("/progress", "")
        await learner.send("/help", "/whoami")  # whatever /progress sent came before
        assert not any(m.photo for m in learner.messages())  # no answers: text only
        seen = len(learner.messages())
        api.send_text(learner.user, f"/quiz {QUIZ}")
        question = await api.wait_for(
            lambda: next((m for m in learner.messages()[seen:] if m.button_data()), None)
        )
        await learner.tap(question, question.button_data()[0])
        seen = len(learner.messages())
        api.send_text(learner.user, "/progress")
        chart = await api.wait_for(
            lambda: next((m for m in learner.messages()[seen:] if m.photo), None)
        )
        assert chart.caption is not None and chart.caption.startswith("📊 Àwòrán")
        content = api.file_content(chart.photo[-1] if chart.photo else {})
        with Image.open(io.BytesIO(content)) as image:
            assert image.format == "PNG" and image.size[0] == 900
