"""A bank of every question type, with pictures and code, in a folder of the test's own; and a
learner who answers each type the way a person does (a tap, picks and Submit, a reply)."""

from __future__ import annotations

from pathlib import Path

from bot.sandbox import FakeBotApi, Message
from tests.support.images import png
from tests.support.learner import Learner

LONG = "A long question. " + "Every word of it counts, and it goes on and on. " * 15
ALT = "A white square on nothing at all, " * 8
BANK = f"""
id: types
title: Types
level: easy
shuffle_options: false
questions:
  - id: tf
    type: true_false
    text: {{en: "Pipelines have bubbles.", yo: "Pipeline ní bubble."}}
    answer: true
    explanation: "Idle time at the start and the end."
  - id: m
    type: multiple
    text: "Which are parallelisms?"
    options: ["Tensor", "Pipeline", "Banana", "Data"]
    answer: [0, 1, 3]
    explanation: "Not the fruit."
  - id: n
    type: numeric
    text: "7B fp16 parameters take how many GB?"
    answer: 14
    tolerance: 0.5
    unit: "GB"
  - id: t
    type: typed
    text: "The idle time of a pipeline is its ...?"
    answer: ["bubble", "pipeline bubble", {{en: "idle time", yo: "àkókò òfo"}}]
  - id: s
    type: typed
    strict_diacritics: true
    text: "Husband, in Yoruba?"
    answer: ["ọkọ"]
  - id: c
    text: "What does this print?\\n```python\\nprint(1 < 2)\\n```"
    options: ["`True`", "`False`"]
    answer: 0
    explanation: "`1 < 2` is `True`."
  - id: p
    text: "What does the picture show?"
    image: images/square.png
    image_alt: "A white square"
    options: ["A square", "A circle"]
    answer: 0
    explanation: "{"It is a square. " * 58}"
    explanation_image: images/why.png
  - id: long
    text: "{LONG}"
    image: images/square.png
    image_alt: "{ALT}"
    options: ["Yes", "No"]
    answer: 0
"""


PICTURED = f"""
id: pictured
title: Pictured
level: easy
questions:
  - id: count
    type: numeric
    text: "{LONG}How many squares does the picture show?"
    image: images/square.png
    image_alt: "{ALT}"
    answer: 1
"""


LINKED = """
id: linked
title: Linked
level: easy
questions:
  - id: web
    text: "Is this picture on the web?"
    image: https://example.org/diagram.png
    options: ["Yes", "No"]
    answer: 0
"""


def types_bank(tmp_path: Path) -> Path:
    """A folder with the bank, its two pictures, and a second bank of one numeric question
    too long for a caption with its picture."""
    folder = tmp_path / "banks"
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "types.yaml").write_text(BANK, encoding="utf-8")
    (folder / "pictured.yaml").write_text(PICTURED, encoding="utf-8")
    (folder / "linked.yaml").write_text(LINKED, encoding="utf-8")
    (folder / "images" / "square.png").write_bytes(png(16, 16))
    (folder / "images" / "why.png").write_bytes(png(24, 12))
    return folder


def current(api: FakeBotApi, message: Message) -> Message:
    """A message as it is now in the chat (after the bot's edits)."""
    return api.messages[(message.chat.id, message.message_id)]


async def pick(learner: Learner, question: Message, label: str) -> str:
    """Tap the toggle of the option `label` of a multiple question; the toast."""
    message = current(learner.api, question)
    for button in message.buttons:
        if button["text"][2:].split(". ", 1)[-1] == label:  # "☐ A. label", "☑ A. label"
            answer = await learner.tap(message, button["callback_data"])
            return str(answer["text"] or "")
    raise AssertionError(f"no option {label!r} in {[b['text'] for b in message.buttons]}")


async def submit(learner: Learner, question: Message) -> str:
    message = current(learner.api, question)
    data = next(b["callback_data"] for b in message.buttons if b["text"].startswith("✅"))
    answer = await learner.tap(message, data)
    return str(answer["text"] or "")


async def reply(learner: Learner, text: str, expect: str, to: Message | None = None) -> Message:
    """Send a text message (a reply to `to` if given); the first new bot message with
    `expect`."""
    seen = len(learner.messages())
    learner.api.send_text(learner.user, text, reply_to=to)
    return await learner.api.wait_for_bot_message(learner.chat_id, expect, after=seen)
