"""Rendering shared by every feature: pure, data in, `(HTML text, inline keyboard)` out.

Content is plain text and is escaped here, once; interface strings are HTML templates. Each
feature draws its own messages (`bot/<feature>/render.py`) from these pieces.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import telegram_html
from bot.core.callbacks import Tap
from bot.core.display import NAME_LIMIT, isolate
from bot.core.i18n import Locale
from content.model import LocalizedText, Question
from content.schema import MAX_EXPLANATION_LENGTH, MAX_OPTION_LENGTH

MAX_MESSAGE_LENGTH = 4096
MAX_BUTTON_LABEL = 48
LETTERS = "ABCDEFGHIJ"


@dataclass(frozen=True)
class Rendered:
    text: str
    markup: InlineKeyboardMarkup | None = None


@dataclass(frozen=True)
class Reply:
    """An interface string (key and already-escaped values) to send back; a value that is a
    Reply itself is put into the same language."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)

    def text(self, locale: Locale) -> str:
        values = {
            name: value.text(locale) if isinstance(value, Reply) else value
            for name, value in self.values.items()
        }
        return locale.t(self.key, **values)


def person(name: str, locale: Locale) -> str:
    """Someone's Telegram name inside a message: cleaned, shortened, isolated, escaped."""
    return html.escape(isolate(name, NAME_LIMIT)) or locale.t("no_name")


def shorten(text: str, limit: int) -> str:
    """Cut plain text to `limit` characters at a word boundary where one is near."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:-") + "…"


def letter(place: int) -> str:
    """The letter of an option's place on screen: A, B, C..."""
    return LETTERS[place]


def screen_order(question: Question, order: Sequence[int] | None) -> Sequence[int]:
    """The options' order on screen: place i shows option `order[i]` (the bank's order when
    there is no shuffle)."""
    return range(len(question.options)) if order is None else order


def option_button(
    place: int, option: LocalizedText, tap: Tap, locale: Locale
) -> list[InlineKeyboardButton]:
    """One option's row of a keyboard: its letter and as much of its text as a button holds."""
    label = f"{letter(place)}. {shorten(locale.plain(option), MAX_BUTTON_LABEL)}"
    return [InlineKeyboardButton(label, callback_data=tap.encode())]


def option_lines(question: Question, locale: Locale, reveal: bool) -> str:
    """The options, one a line; on a reveal the right one marked (a posted question, a
    draft's preview)."""
    lines = []
    for i, option in enumerate(question.options):
        mark = ("✅ " if i == question.answer else "▫️ ") if reveal else ""
        lines.append(f"{mark}<b>{letter(i)}.</b> {locale.text(option, MAX_OPTION_LENGTH)}")
    return "\n".join(lines)


def explanation(question: Question, locale: Locale) -> str | None:
    if question.explanation is None:
        return None
    return locale.t("explanation", text=locale.text(question.explanation, MAX_EXPLANATION_LENGTH))


def answer_toast(
    question: Question, tapped: int, locale: Locale, order: Sequence[int] | None = None
) -> str:
    """Right or wrong, and the right letter: for the place on screen that was `tapped`."""
    right = list(screen_order(question, order)).index(question.answer)
    if tapped == right:
        return locale.t("correct_toast")
    return locale.t("wrong_toast", letter=letter(right))


def split_blocks(blocks: Sequence[str], limit: int = MAX_MESSAGE_LENGTH) -> list[str]:
    """Join blocks with blank lines into as few messages as fit `limit` (as Telegram counts,
    after entity parsing); see `telegram_html.split_blocks`."""
    return telegram_html.split_blocks(blocks, limit)
