"""Menus for a command that was not told which quiz: `/groupquiz`, `/assign`, `/report`,
`/export`, `/quiz`, `/push` with no quiz answer with the quizzes as buttons, a screenful a page
(`quiz_menu`). The choice goes back to the command's own feature (`QuizMenuHandler`,
bot/core/handlers.py), which asks what else it needs with buttons of its own (seconds and
mode, a deadline, a format) or carries it out.

Every button names the command it is for (`MenuFor`) and the quiz by its id, within
Telegram's 64 bytes (bot/core/callbacks.py): the menu keeps nothing in storage. In a group,
only those who control the chat's quizzes may turn its pages or choose."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.arguments import echo
from bot.core.callbacks import QuizMenuChoice, QuizMenuPage, Tap
from bot.core.context import QuizContext
from bot.core.i18n import Locale
from bot.core.render import Rendered
from content.catalog import Catalog
from content.loader import IN_GROUPS
from content.model import Quiz, clip
from content.rules import suggest_timezones

PAGE_SIZE = 8  # quizzes a page: a phone's screenful of buttons


class MenuFor(IntEnum):
    """The command a menu of quizzes answers."""

    QUIZ = 1
    GROUPQUIZ = 2
    ASSIGN = 3
    REPORT = 4
    EXPORT = 5
    PUSH = 6


# the commands whose quiz is played in a chat: only quizzes with a question a chat can take
IN_CHATS = frozenset({MenuFor.GROUPQUIZ, MenuFor.PUSH})


def menu_quizzes(catalog: Catalog, menu: MenuFor) -> list[Quiz]:
    quizzes = list(catalog)
    if menu in IN_CHATS:
        quizzes = [q for q in quizzes if any(IN_GROUPS.takes(x) for x in q.questions)]
    return quizzes


def pages(count: int) -> int:
    return max(1, -(-count // PAGE_SIZE))


def quiz_menu(catalog: Catalog, menu: MenuFor, page: int, locale: Locale) -> Rendered:
    """ "Which quiz?" and a page of quizzes as buttons (a page out of range shows the last),
    with ◀️ ▶️ to the pages either side."""
    quizzes = menu_quizzes(catalog, menu)
    if not quizzes:
        return Rendered(locale.t("menu_no_quizzes"))
    last = pages(len(quizzes)) - 1
    page = min(max(page, 0), last)
    shown = quizzes[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    rows = [
        [
            InlineKeyboardButton(
                locale.t("menu_quiz_button", title=clip(locale.label(quiz.title), 60), n=len(quiz)),
                callback_data=QuizMenuChoice(menu, quiz.id).encode(),
            )
        ]
        for quiz in shown
    ]
    if last > 0:
        turn = []
        if page > 0:
            turn.append(_page_button("◀️", menu, page - 1))
        turn.append(_page_button(f"{page + 1}/{last + 1}", menu, page))
        if page < last:
            turn.append(_page_button("▶️", menu, page + 1))
        rows.append(turn)
    text = locale.t("menu_which_quiz", n=len(quizzes))
    return Rendered(text, InlineKeyboardMarkup(rows))


def _page_button(label: str, menu: MenuFor, page: int) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=QuizMenuPage(menu, page).encode())


def choices(text: str, buttons: Sequence[tuple[str, Tap]], per_row: int = 3) -> Rendered:
    """A next step as buttons: each (label, the tap it sends), `per_row` a row."""
    made = [InlineKeyboardButton(label, callback_data=tap.encode()) for label, tap in buttons]
    rows = [made[at : at + per_row] for at in range(0, len(made), per_row)]
    return Rendered(text, InlineKeyboardMarkup(rows))


def zone_suggestions(
    words: Sequence[str], make: Callable[[str], Tap], locale: Locale
) -> Rendered | None:
    """For a time zone's name that is none (`/timezone Lagos`): "did you mean?" and the zones
    it may mean as buttons; None when nothing comes close."""
    zones = suggest_timezones(" ".join(words))
    if not zones:
        return None
    text = locale.t("timezone_did_you_mean", timezone=echo(" ".join(words)))
    return choices(text, [(zone, make(zone)) for zone in zones], per_row=1)


async def show(context: QuizContext, menu: MenuFor) -> None:
    """Answer a command given no quiz with the first page of its menu."""
    shown = quiz_menu(context.services.catalog, menu, 0, context.locale)
    await context.say(shown.text, shown.markup)


def menu_of(value: int) -> MenuFor | None:
    """The command a button's number names; None for a number no menu has."""
    return _MENUS.get(value)


_MENUS = {menu.value: menu for menu in MenuFor}
