"""Everything the validator accepts is shown whole: the seed banks and a bank built to every
limit of the validator go through /preview and a full quiz, in English and Yoruba, through
the stand-in, which checks Telegram's HTML and length."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from content.loader import bank_files, load_bank_file, parse_bank
from content.schema import (
    MAX_DESCRIPTION_LENGTH,
    MAX_EXPLANATION_LENGTH,
    MAX_OPTION_LENGTH,
    MAX_OPTIONS,
    MAX_QUESTION_ID_LENGTH,
    MAX_QUESTION_LENGTH,
    MAX_QUIZ_ID_LENGTH,
    MAX_TITLE_LENGTH,
)
from tests.support.admin import failed_calls, seed_banks, upload
from tests.support.harness import make_settings
from tests.support.learner import Learner

ADMIN = FakeUser(970, "Ade", "en")


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, tmp_path: Path) -> Settings:
    banks = seed_banks(tmp_path)
    return make_settings(api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id}))


# item 15: everything the validator accepts can be shown


def _cycle(pattern: str, units: int) -> str:
    """`pattern` repeated to exactly `units` UTF-16 units (cut at a whole character)."""
    out, used = [], 0
    while True:
        for char in pattern:
            size = len(char.encode("utf-16-le")) // 2
            if used + size > units:
                return "".join(out)
            out.append(char)
            used += size


STYLES = {
    # characters that escape to entities, and quotes
    "escapes": ('"&"\'', "<&>", "&amp; &lt;b&gt; "),
    # one long word, no space to break at
    "word": ("x", "y", "z"),
    # Yoruba letters with combining marks
    "yoruba": ("ẹ̀ọ́ṣ ", "Ọ̀rọ̀ ", "ìbéèrè "),
    # emoji, two UTF-16 units each, and a ZWJ sequence
    "emoji": ("😀👩‍💻 ", "👍", "💡 "),
    # lines and blank lines inside plain text
    "lines": ("line &\n\n<i>x</i>\n", "a\nb ", "one\n\ntwo\n"),
}


def hidden_style_bank() -> dict[str, Any]:
    """A bank at every limit of the validator, in every hard style: text, options, explanation,
    title, description, guide, ids."""
    questions = []
    for n, (style, (text, option, explanation)) in enumerate(list(STYLES.items()) * 2):
        qid = f"{style}-{n}-".ljust(MAX_QUESTION_ID_LENGTH, "q")
        questions.append(
            {
                "id": qid,
                "text": {
                    "en": f"Q{n} " + _cycle(text, MAX_QUESTION_LENGTH - len(f"Q{n} ")),
                    "yo": f"Ìbéèrè {n} " + _cycle(text, MAX_QUESTION_LENGTH - len(f"Ìbéèrè {n} ")),
                },
                "options": [
                    {"en": f"{k} " + _cycle(option, MAX_OPTION_LENGTH - 2)}
                    for k in range(MAX_OPTIONS)
                ],
                "answer": MAX_OPTIONS - 1,
                "explanation": {"en": _cycle(explanation, MAX_EXPLANATION_LENGTH)},
            }
        )
    return {
        "id": ("hidden-" * 10)[: MAX_QUIZ_ID_LENGTH - 1] + "z",
        "title": {"en": _cycle("T&<> ", MAX_TITLE_LENGTH), "yo": _cycle("Ọ̀&<", MAX_TITLE_LENGTH)},
        "description": {"en": _cycle('"&"\n<i>', MAX_DESCRIPTION_LENGTH)},
        "level": "hard",
        "guide": {
            "title": {"en": _cycle("G&<>", 200)},
            "url": "https://example.com/?" + _cycle("a=1&b=<2>", 400),
        },
        "questions": questions,
    }


async def _preview(api: FakeBotApi, learner: Learner, quiz_id: str) -> str:
    """The whole /preview, once its last message (with the Start button) arrived."""
    seen = len(learner.messages())
    api.send_text(learner.user, f"/preview {quiz_id}")
    await api.wait_for(lambda: any(m.buttons for m in learner.messages()[seen:]))
    return "\n".join(m.text for m in learner.messages()[seen:])


async def _next_with_buttons(api: FakeBotApi, learner: Learner, seen: int) -> Message:
    return await api.wait_for(
        lambda: next((m for m in learner.messages()[seen:] if m.buttons), None)
    )


async def _take_whole_quiz(api: FakeBotApi, learner: Learner, quiz_id: str, n: int) -> None:
    """Answer every question with its first button (right or wrong), then see the summary."""
    seen = len(learner.messages())
    api.send_text(learner.user, f"/quiz {quiz_id}")
    for _ in range(n):
        question = await _next_with_buttons(api, learner, seen)
        seen = len(learner.messages())
        await learner.tap(question, question.button_data()[0])
    summary = await _next_with_buttons(api, learner, seen)
    assert "🏁" in summary.text
    assert not failed_calls(api), failed_calls(api)


async def test_the_seed_banks_and_a_bank_at_every_limit_are_shown_whole(
    api: FakeBotApi, bot: QuizApplication, settings: Settings
) -> None:
    bank = hidden_style_bank()
    data = yaml.safe_dump(bank, allow_unicode=True, sort_keys=False)
    result = parse_bank(data, "hidden.yaml", "en")
    assert result.ok, result.errors  # the validator accepts it
    await upload(api, ADMIN, data, "imported", "hidden.yaml")
    seeds = [load_bank_file(p, "en").quiz for p in bank_files(settings.content_dir)]
    for user in (FakeUser(961, "Ada", "en"), FakeUser(962, "Ife", "yo")):
        learner = Learner(api, user)
        shown = await _preview(api, learner, bank["id"])
        for question in bank["questions"]:
            text = question["text"].get(user.language_code or "en", question["text"]["en"])
            assert " ".join(text.split()) in " ".join(shown.split()), question["id"]
            for option in question["options"]:
                assert " ".join(option["en"].split()) in " ".join(shown.split())
        for field in (bank["description"]["en"], bank["guide"]["title"]["en"]):
            assert " ".join(field.split()) in " ".join(shown.split())
        seen = len(learner.messages())
        await _take_whole_quiz(api, learner, bank["id"], len(bank["questions"]))
        reveals = " ".join(" ".join(m.text.split()) for m in learner.messages()[seen:])
        for question in bank["questions"]:
            assert " ".join(question["explanation"]["en"].split()) in reveals, question["id"]
        for seed in seeds:
            assert seed is not None
            await _preview(api, learner, seed.id)
            await _take_whole_quiz(api, learner, seed.id, len(seed))
    assert not failed_calls(api), failed_calls(api)
