"""Every command, declared once, in the feature that answers it, as a `Command`: its name, its
handler, who may use it (`Role`), where (`Where`), the task `/help` files it under (`Task`),
its arguments and one example. Its one-line description is the interface string
`cmd_<name>` (or the declaration's `key`) in every language.

Everything else follows from those declarations:

- the handler's registration (`Command.handler`): the filter of the chats it is declared
  for, and the guard of its role (`bot.core.access`);
- the command menus (`menus`): one complete list per `setMyCommands` scope, since Telegram
  shows the most specific scope's list and never merges two;
- what `/help` shows each `Audience` (`Audience.commands`), and the README's table
  (`markdown_table`, checked by a test against README.md).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import BaseHandler, CommandHandler, filters

from bot.core.access import admin_only, chat_admin_only, teacher_only
from bot.core.context import QuizContext
from bot.core.handlers import PRIVATE_MESSAGE

Callback = Callable[[Update, QuizContext], Coroutine[Any, Any, Any]]

NAME_PATTERN = r"[a-z0-9_]{1,32}"  # Telegram's rule for a command in a menu
MAX_MENU = 100  # commands in one menu
MAX_DESCRIPTION = 256


class Role(enum.Enum):
    """Who may use a command. A chat admin's commands are also the bot's admins' (in any
    chat the bot is in); a learner's are everyone's. A teacher is an admin of a group or a
    channel the bot is in, as the bot last learned it (`storage.chat_store`), using the bot in
    private: a teacher's commands are also the bot's admins'."""

    LEARNER = "learner"
    TEACHER = "teacher"
    CHAT_ADMIN = "chat admin"
    BOT_ADMIN = "bot admin"


class Where(enum.Flag):
    """The chats a command is answered in."""

    PRIVATE = enum.auto()
    GROUP = enum.auto()  # groups and supergroups, an anonymous admin's message included
    CHANNEL = enum.auto()  # a channel's post (only its admins can post)

    @property
    def words(self) -> str:
        return ", ".join(str(place.name).lower() for place in Where if place in self)


_FILTERS = {
    Where.PRIVATE: PRIVATE_MESSAGE,
    Where.GROUP: filters.UpdateType.MESSAGE & filters.ChatType.GROUPS,
    Where.CHANNEL: filters.UpdateType.CHANNEL_POST & filters.ChatType.CHANNEL,
}


def where_filter(where: Where) -> filters.BaseFilter:
    """The updates a command declared for `where` is answered in."""
    chosen = [_FILTERS[place] for place in Where if place in where]
    combined = chosen[0]
    for other in chosen[1:]:
        combined = combined | other
    return combined


class Task(enum.Enum):
    """What a person wants done: `/help`'s topics, in the order shown. Each has an emoji and
    a name (`task_<value>` in the interface strings)."""

    STUDY = "study"
    GROUP_QUIZ = "group"  # quizzes and posted questions in groups and channels
    HOMEWORK = "homework"  # homework and reports
    CONTENT = "content"
    SETTINGS = "settings"


QUIZ = "{quiz}"  # in an example: an id of a quiz the bot has


@dataclass(frozen=True)
class Command:
    """One command, as its feature declares it. `args` is its usage after the name
    (`<quiz id> [seconds]`), `example` the words of one example after the name (`{quiz}`
    stands for a quiz the bot has); `key` names its description when `cmd_<name>` is taken
    by another declaration of the same name (`/language` in private and in a group)."""

    name: str
    callback: Callback
    who: Role
    where: Where
    task: Task
    args: str = ""
    example: str = ""
    key: str = ""

    @property
    def description_key(self) -> str:
        return self.key or f"cmd_{self.name}"

    @property
    def guarded(self) -> Callback:
        """The callback behind the guard of its role: anyone else is refused politely."""
        if self.who is Role.BOT_ADMIN:
            return admin_only(self.callback)
        if self.who is Role.CHAT_ADMIN:
            return chat_admin_only(self.callback)
        if self.who is Role.TEACHER:
            return teacher_only(self.callback)
        return self.callback

    def handler(self) -> CommandHandler[QuizContext, Any]:
        """Its registration: the command, where it is declared, for whom it is declared."""
        return CommandHandler(self.name, self.guarded, filters=where_filter(self.where))

    def usage(self) -> str:
        return f"/{self.name} {self.args}".rstrip()

    def sample(self, quiz_id: str) -> str:
        """The example, with a quiz the bot has."""
        return f"/{self.name} {self.example.replace(QUIZ, quiz_id)}".rstrip()


def handlers(commands: Iterable[Command]) -> list[BaseHandler[Update, QuizContext, Any]]:
    return [command.handler() for command in commands]


def private_only(declared: Sequence[Command]) -> list[str]:
    """The learners' commands that no declaration answers outside a private chat: sent in a
    group, they are pointed to the private chat."""
    elsewhere = {c.name for c in declared if c.where & ~Where.PRIVATE}
    return sorted(
        {c.name for c in declared if c.who is Role.LEARNER and c.where & Where.PRIVATE} - elsewhere
    )


COMMANDS_KEY = "commands"  # in bot_data: every declaration, for /help


def publish(bot_data: dict[Any, Any], declared: Sequence[Command]) -> None:
    """Make every declaration known to the handlers that show them (`declared`)."""
    bot_data[COMMANDS_KEY] = tuple(declared)


def declared(context: QuizContext) -> tuple[Command, ...]:
    """Every command the application declares (`publish`)."""
    found: tuple[Command, ...] = context.bot_data[COMMANDS_KEY]
    return found


def not_declared(commands: Sequence[Command], where: Where) -> list[str]:
    """The names of `commands` that none of them answers in `where`: a feature points them
    to the chats where they work."""
    answered = {command.name for command in commands if command.where & where}
    return sorted({command.name for command in commands} - answered)


class Audience(enum.Enum):
    """Who reads a menu or `/help`, and where: their role and the chats they are in."""

    LEARNER = "learner"  # anyone, in private
    TEACHER = "teacher"  # an admin of a group or channel the bot is in, in private
    BOT_ADMIN = "bot-admin"  # one of the bot's admins, in private
    MEMBER = "member"  # a member of a group
    CHAT_ADMIN = "chat-admin"  # an admin of a group (or one of the bot's admins there)

    @property
    def roles(self) -> frozenset[Role]:
        return {
            Audience.LEARNER: frozenset({Role.LEARNER}),
            Audience.TEACHER: frozenset({Role.LEARNER, Role.TEACHER}),
            Audience.BOT_ADMIN: frozenset({Role.LEARNER, Role.TEACHER, Role.BOT_ADMIN}),
            Audience.MEMBER: frozenset({Role.LEARNER}),
            Audience.CHAT_ADMIN: frozenset({Role.LEARNER, Role.CHAT_ADMIN}),
        }[self]

    @property
    def where(self) -> Where:
        return Where.PRIVATE if self in PRIVATE_AUDIENCES else Where.GROUP

    @property
    def runs_groups(self) -> bool:
        """Whether, in private, they also run groups: their `/help` shows the chat admins'
        commands too, marked as used in a group."""
        return self in (Audience.TEACHER, Audience.BOT_ADMIN)

    def commands(self, declared: Iterable[Command]) -> list[Command]:
        """What this audience may use where it is, one declaration per name, by task (then in
        the order declared)."""
        seen: set[str] = set()
        chosen = []
        for command in declared:
            usable = command.who in self.roles and command.where & self.where
            if usable and command.name not in seen:
                seen.add(command.name)
                chosen.append(command)
        order = list(Task)
        return sorted(chosen, key=lambda command: order.index(command.task))

    def help_commands(self, declared: Sequence[Command]) -> list[Command]:
        """What `/help` shows: what the audience may use here and, to the bot's admins and the
        teachers in private, the chat admins' commands too (they may use them in their
        groups: the teacher reading /help in private learns how to run the class)."""
        here = self.commands(declared)
        if not self.runs_groups:
            return here
        names = {command.name for command in here}
        elsewhere = Audience.CHAT_ADMIN.commands(declared)
        extra = [c for c in elsewhere if c.who is Role.CHAT_ADMIN and c.name not in names]
        order, place = list(Task), {id(c): i for i, c in enumerate(declared)}
        return sorted([*here, *extra], key=lambda c: (order.index(c.task), place[id(c)]))


PRIVATE_AUDIENCES = (Audience.LEARNER, Audience.TEACHER, Audience.BOT_ADMIN)


@dataclass(frozen=True)
class MenuScope:
    """A `setMyCommands` scope, as the Bot API names it (`BotCommandScope*`)."""

    type: str
    chat_id: int | None = None


# Telegram shows, in a private chat, the chat's own list, else all private chats', else the
# default; in a group, the chat administrators' list to its admins, else all group chats',
# else the default. Each list must be complete: lists are never merged.
SCOPES = (
    (MenuScope("default"), Audience.LEARNER),
    (MenuScope("all_private_chats"), Audience.LEARNER),
    (MenuScope("all_group_chats"), Audience.MEMBER),
    (MenuScope("all_chat_administrators"), Audience.CHAT_ADMIN),
)


@dataclass(frozen=True)
class Menu:
    """One `setMyCommands` call: a scope, a language (None: every language without its own
    list) and the commands, as (name, description)."""

    scope: MenuScope
    language: str | None
    commands: tuple[tuple[str, str], ...]


def menus(
    declared: Sequence[Command],
    admin_ids: Iterable[int],
    languages: Iterable[str],
    describe: Callable[[str, str], str],
    fallback: str,
) -> list[Menu]:
    """Every menu: each scope in the fallback language, and again in each other language
    that has its own text for that scope's descriptions. `describe(language, key)` gives the
    text."""
    scopes = [*SCOPES, *((MenuScope("chat", a), Audience.BOT_ADMIN) for a in sorted(admin_ids))]
    languages = tuple(languages)
    found = []
    for scope, audience in scopes:
        found += audience_menus(declared, audience, scope, languages, describe, fallback)
    return found


def audience_menus(
    declared: Sequence[Command],
    audience: Audience,
    scope: MenuScope,
    languages: Iterable[str],
    describe: Callable[[str, str], str],
    fallback: str,
) -> list[Menu]:
    """One scope's menus for `audience`: in the fallback language, and again in each other
    language that has its own text for the descriptions (a teacher's private chat is given
    its menus this way as the bot learns of them)."""
    keys = [(c.name, c.description_key) for c in audience.commands(declared)]
    base = tuple((name, describe(fallback, key)) for name, key in keys)
    found = [Menu(scope, None, base)]
    for language in languages:
        if language == fallback:
            continue
        own = tuple((name, describe(language, key)) for name, key in keys)
        if own != base:  # the language has translations of its own
            found.append(Menu(scope, language, own))
    return found


def markdown_table(declared: Sequence[Command], describe: Callable[[str], str]) -> str:
    """The README's command table, by role and task: who, where, the command with its usage,
    what it does (`describe(key)`, in English) and an example where it takes arguments."""
    rows = [
        "| who | where | command | what it does | example |",
        "| --- | --- | --- | --- | --- |",
    ]
    roles, tasks = list(Role), list(Task)
    for command in sorted(declared, key=lambda c: (roles.index(c.who), tasks.index(c.task))):
        example = f"`{command.sample('my-quiz')}`" if command.example else ""
        cells = (
            command.who.value,
            command.where.words,
            f"`{command.usage()}`",
            describe(command.description_key),
            example,
        )
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows) + "\n"
