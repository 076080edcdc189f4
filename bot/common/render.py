"""`/help` and `/whoami`, drawn: pure, data in, `(HTML text, keyboard)` out.

`/help` shows its reader what they may use where they are (`Audience.help_commands`), by task,
each command with one example. When that is longer than a phone screen, it is an overview (the
commands' names by task) with a button per task; a task's page is drawn in place of the
overview, with a button back.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.callbacks import HelpTopic
from bot.core.commands import Audience, Command, Role, Task
from bot.core.i18n import Locale
from bot.core.render import Rendered

OVERVIEW = "all"  # the HelpTopic task of the overview
HELP_LINES = 16  # the most lines /help shows at once before it becomes topics with buttons
TOPICS_PER_ROW = 2

INTRO = {
    Audience.LEARNER: "help_intro",
    Audience.TEACHER: "help_intro_teacher",
    Audience.BOT_ADMIN: "help_intro_bot_admin",
    Audience.MEMBER: "help_intro_member",
    Audience.CHAT_ADMIN: "help_intro_chat_admin",
}


def _tasks(commands: Sequence[Command]) -> list[Task]:
    return [task for task in Task if any(command.task is task for command in commands)]


def _heading(task: Task, locale: Locale) -> str:
    return locale.t(f"task_{task.value}")


def _line(command: Command, audience: Audience, quiz_id: str, locale: Locale) -> str:
    """`/name: what it does`, then an example when it takes arguments (a command alone is its
    own example; Telegram makes it a link that sends it)."""
    text = f"/{command.name}: {locale.t(command.description_key)}"
    if audience.runs_groups and command.who is Role.CHAT_ADMIN:
        text += f" ({locale.t('help_in_a_group')})"
    if command.example:
        text += f"\n    <code>{html.escape(command.sample(quiz_id))}</code>"
    return text


def _page(
    task: Task, commands: Sequence[Command], audience: Audience, quiz_id: str, locale: Locale
) -> str:
    lines = [f"<b>{_heading(task, locale)}</b>"]
    lines += [_line(c, audience, quiz_id, locale) for c in commands if c.task is task]
    return "\n".join(lines)


def _intro(audience: Audience, locale: Locale, link: str) -> str:
    return locale.t(INTRO[audience], link=link)


def help_message(
    declared: Sequence[Command], audience: Audience, quiz_id: str, locale: Locale, link: str
) -> Rendered:
    """The whole of /help when it fits a phone screen, else the overview with topics."""
    commands = audience.help_commands(declared)
    pages = [_page(task, commands, audience, quiz_id, locale) for task in _tasks(commands)]
    whole = "\n\n".join([_intro(audience, locale, link), *pages])
    if whole.count("\n") < HELP_LINES:
        return Rendered(whole)
    return help_overview(declared, audience, locale, link)


def help_overview(
    declared: Sequence[Command], audience: Audience, locale: Locale, link: str
) -> Rendered:
    """The commands' names by task, a button per task."""
    commands = audience.help_commands(declared)
    tasks = _tasks(commands)
    lines = [
        f"<b>{_heading(task, locale)}</b>: "
        + " ".join(f"/{c.name}" for c in commands if c.task is task)
        for task in tasks
    ]
    text = "\n\n".join([_intro(audience, locale, link), "\n".join(lines), locale.t("help_topics")])
    buttons = [
        InlineKeyboardButton(
            _heading(task, locale),
            callback_data=HelpTopic(audience.value, task.value).encode(),
        )
        for task in tasks
    ]
    rows = [buttons[i : i + TOPICS_PER_ROW] for i in range(0, len(buttons), TOPICS_PER_ROW)]
    return Rendered(text, InlineKeyboardMarkup(rows))


def help_topic(
    declared: Sequence[Command], audience: Audience, task: Task, quiz_id: str, locale: Locale
) -> Rendered:
    """One task's commands, each with an example, and the button back to the overview."""
    commands = audience.help_commands(declared)
    back = InlineKeyboardButton(
        locale.t("button_help_back"), callback_data=HelpTopic(audience.value, OVERVIEW).encode()
    )
    page = _page(task, commands, audience, quiz_id, locale)
    return Rendered(page, InlineKeyboardMarkup([[back]]))


def whoami(
    user_id: int | None,
    chat_id: int,
    *,
    private: bool,
    admin: bool,
    bot_admin: bool,
    sender_chat_id: int | None,
    locale: Locale,
) -> str:
    """A person's Telegram id and, to an admin in a group, the chat's id (what `/push`,
    `/schedule` and the admins' settings ask for). Someone writing as a chat (an anonymous
    admin, a channel) has no id of their own to show."""
    lines = []
    if sender_chat_id is not None:
        lines.append(locale.t("whoami_as_chat"))
    elif user_id is not None:
        lines.append(locale.t("whoami_you", user_id=user_id))
    if bot_admin:
        lines.append(locale.t("whoami_bot_admin"))
    elif private:
        lines.append(locale.t("whoami_admins_hint"))
    if not private and admin:
        lines.append(locale.t("whoami_chat", chat_id=chat_id))
    return "\n".join(lines)
