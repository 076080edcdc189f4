"""Pure rendering of what a group quiz leaves behind: data in, HTML text (and keyboard) out."""

from __future__ import annotations

from bot.core.i18n import Locale
from content.model import Quiz
from content.schema import MAX_TITLE_LENGTH


def missed_intro(quiz: Quiz, count: int, locale: Locale) -> str:
    return locale.t("missed_intro", title=locale.text(quiz.title, MAX_TITLE_LENGTH), n=count)


def nothing_missed(quiz: Quiz, locale: Locale) -> str:
    return locale.t("missed_none", title=locale.text(quiz.title, MAX_TITLE_LENGTH))
