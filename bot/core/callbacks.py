"""The callback-data codec: typed, versioned, at most 64 bytes, never trusted.

Each kind of button is declared once: a frozen dataclass of typed fields, its prefix, and the
chat types where it may be pressed. Encoding, decoding and the chat rule all follow from that
declaration. Layout: `<version>:<prefix>:<field>:<field>...`.

Decoding only proves the data has our shape; handlers check it against stored state. Anyone
can send any callback data on any of the bot's messages, in any chat the bot is in, so the
chat rule is not a formality: a learner's button pressed on a group message must not act there.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Annotated, Any, ClassVar, cast, dataclass_transform, get_args, get_type_hints

VERSION = "1"
MAX_BYTES = 64

PRIVATE = frozenset({"private"})
GROUPS = frozenset({"group", "supergroup", "channel"})
ANY_CHAT = PRIVATE | GROUPS
PEOPLES_CHATS = frozenset({"private", "group", "supergroup"})  # where people send commands


@dataclass(frozen=True)
class FieldFormat:
    """How one field is written: the exact text pattern, and how to read it back."""

    pattern: re.Pattern[str]
    parse: type


# ASCII digits only, no sign, no leading zero: exactly one text per number
Int = Annotated[int, FieldFormat(re.compile(r"0|[1-9][0-9]{0,17}"), int)]
Slug = Annotated[str, FieldFormat(re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*"), str)]
Language = Annotated[str, FieldFormat(re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})?"), str)]
# an IANA time zone's name as tzdata spells it (`America/Argentina/Buenos_Aires`)
Zone = Annotated[
    str, FieldFormat(re.compile(r"[A-Z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9_+-]+){1,2}"), str)
]


@dataclass_transform(frozen_default=True)
class Tap:
    """A kind of button, declared as `class Kind(Tap, prefix="x", chats=PRIVATE)` with fields
    that are `Int`, `Slug`, `Language` or `Zone`; each kind is made a frozen dataclass."""

    prefix: ClassVar[str]
    chats: ClassVar[frozenset[str]]
    # a member's answer in a chat: taps of different people are independent of each other
    # and are handled side by side (bot/core/update_processor.py); other taps in a chat wait
    # for everything the chat did before them
    per_member: ClassVar[bool]
    formats: ClassVar[tuple[FieldFormat, ...]]  # one per field, in the order they are written

    def __init_subclass__(
        cls, *, prefix: str, chats: frozenset[str], per_member: bool = False, **kwargs: Any
    ) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(frozen=True)(cls)
        if prefix in _KINDS:
            raise TypeError(f"callback prefix {prefix!r} declared twice")
        hints = get_type_hints(cls, include_extras=True)
        own = inspect.get_annotations(cls)
        cls.prefix = prefix
        cls.chats = chats
        cls.per_member = per_member
        cls.formats = tuple(get_args(hints[name])[1] for name in own)
        _KINDS[prefix] = cls

    @classmethod
    def allowed_in(cls, chat_type: str | None) -> bool:
        return chat_type in cls.chats

    def encode(self) -> str:
        parts = [VERSION, self.prefix, *(str(getattr(self, f.name)) for f in fields(self))]  # type: ignore[arg-type]
        data = ":".join(parts)
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data over {MAX_BYTES} bytes: {data!r}")
        return data


_KINDS: dict[str, type[Tap]] = {}


# --- everyone ---


class HelpTopic(Tap, prefix="hp", chats=PEOPLES_CHATS):
    """A topic of `/help` (a task's name, or `all` for the overview), as drawn for
    `audience` (`bot.core.commands.Audience`): the message shows what it showed its reader."""

    audience: Slug
    task: Slug


# --- a learner in a private chat ---


class AnswerTap(Tap, prefix="a", chats=PRIVATE):
    """A learner tapped the option shown at `place` (options are shuffled per attempt: the
    attempt's order says which option that is) for the question at `position` of attempt
    `attempt_id`."""

    attempt_id: Int
    position: Int
    place: Int


class PickOption(Tap, prefix="pk", chats=PRIVATE):
    """A learner picks, or unpicks, the option shown at `place` of a multiple question (the
    question at `position` of attempt `attempt_id`); the selection is kept in SQLite."""

    attempt_id: Int
    position: Int
    place: Int


class SubmitPicks(Tap, prefix="sb", chats=PRIVATE):
    """A learner submits the options picked for a multiple question."""

    attempt_id: Int
    position: Int


class OpenQuiz(Tap, prefix="q", chats=PRIVATE):
    """Start a quiz, or continue its running attempt (a finished one starts anew)."""

    quiz_id: Slug


class PreviewQuiz(Tap, prefix="p", chats=PRIVATE):
    quiz_id: Slug


class ChooseLanguage(Tap, prefix="l", chats=PRIVATE):
    language: Language


class StartReview(Tap, prefix="rv", chats=PRIVATE):
    """Start or continue a review session of the questions due now."""


class ReviewAhead(Tap, prefix="ra", chats=PRIVATE):
    """With nothing due: start a review session of the cards due within a few days."""


class ReviewForgotten(Tap, prefix="rf", chats=PRIVATE):
    """Start a review session of the cards the learner forgot (lapsed) lately."""


class PractiseMissed(Tap, prefix="pm", chats=PRIVATE):
    """Practise now what attempt `attempt_id` (a quiz, a review, a practice round, a
    homework once closed) got wrong: a round of exactly those questions."""

    attempt_id: Int


class ListQuizzes(Tap, prefix="ls", chats=PRIVATE):
    pass


class SetTimezone(Tap, prefix="tz", chats=PRIVATE):
    """A learner picks a time zone suggested for a name that was none (`/timezone Lagos`)."""

    zone: Zone


class ConfirmForget(Tap, prefix="fgy", chats=PRIVATE):
    """A learner confirms deleting their data (`/forgetme`), asked at `asked_at` (Unix time):
    a confirmation left lying around expires."""

    asked_at: Int


class CancelForget(Tap, prefix="fgn", chats=PRIVATE):
    pass


# --- a learner's exam, in a private chat: every tap is checked against the stored exam (its
# owner, still running, its time not up, the message that shows its question now) ---


class ExamChoose(Tap, prefix="xc", chats=PRIVATE):
    """The option shown at `place` chosen (a multiple question's: picked or unpicked) for the
    question at `position` of exam attempt `attempt_id`: the answer so far, changeable."""

    attempt_id: Int
    position: Int
    place: Int


class ExamClear(Tap, prefix="xd", chats=PRIVATE):
    """The answer to the question at `position` taken back (unanswered costs nothing)."""

    attempt_id: Int
    position: Int


class ExamGo(Tap, prefix="xg", chats=PRIVATE):
    """Show the question at `position` of the exam (previous, next, back from handing in)."""

    attempt_id: Int
    position: Int


class ExamFinish(Tap, prefix="xf", chats=PRIVATE):
    """Asks to hand the exam in: answered with the question whether to."""

    attempt_id: Int


class ExamHandIn(Tap, prefix="xh", chats=PRIVATE):
    """Hand the exam in now: it is marked."""

    attempt_id: Int


class ExamReview(Tap, prefix="xr", chats=PRIVATE):
    """Page `page` (1-based) of an ended exam's review; 0 opens it in a message of its own."""

    attempt_id: Int
    page: Int


# --- admins ---


class ConfirmDraft(Tap, prefix="adc", chats=PRIVATE):
    """An admin confirms the previewed question draft `nonce` (`/addquestion`)."""

    nonce: Int


class CancelDraft(Tap, prefix="adx", chats=PRIVATE):
    nonce: Int


class ImportGood(Tap, prefix="aig", chats=PRIVATE):
    """An admin imports the questions that can be taken from the refused file that the
    tapped message replies to (`/import skip` on it)."""


class DraftType(Tap, prefix="adt", chats=PRIVATE):
    """An admin chose the type of the question draft `nonce` (`/addquestion`): the index of
    `kind` in `QuestionType`."""

    nonce: Int
    kind: Int


class PostAnswer(Tap, prefix="adp", chats=ANY_CHAT, per_member=True):
    """A chat member chose `option` of the question posted as post `post_id` (admin push).

    `post_id` is the post's number (`group_sessions.post_id`), not its session id: posts kept
    the numbers they had before they became group sessions, so old messages still answer.
    `/push` may target any chat, a private one included; the post itself names its chat and
    message, and a tap anywhere else is refused against that."""

    post_id: Int
    option: Int


class PostPick(Tap, prefix="pp", chats=ANY_CHAT, per_member=True):
    """A chat member picks, or unpicks, `option` of the multiple question posted as post
    `post_id`; the selection is that member's alone, kept in SQLite, shown in their toast."""

    post_id: Int
    option: Int


class PostSubmit(Tap, prefix="ps", chats=ANY_CHAT, per_member=True):
    """A chat member submits their selection on the multiple question of post `post_id`."""

    post_id: Int


# --- a whole group or channel ---


class GroupAnswer(Tap, prefix="ga", chats=GROUPS, per_member=True):
    """A member of a chat chose `option` for the question at `position` of a group session."""

    session_id: Int
    position: Int
    option: Int


class GroupPick(Tap, prefix="gp", chats=GROUPS, per_member=True):
    """A member picks, or unpicks, `option` of the multiple question at `position` of a group
    session: the shared keyboard never changes, the selection is that member's alone."""

    session_id: Int
    position: Int
    option: Int


class GroupSubmit(Tap, prefix="gs", chats=GROUPS, per_member=True):
    """A member submits their selection on the multiple question at `position`."""

    session_id: Int
    position: Int


class SetChatTimezone(Tap, prefix="gtz", chats=GROUPS):
    """A group's admin picks a time zone suggested for the group (`/timezone Lagos`)."""

    zone: Zone


class GroupReveal(Tap, prefix="gr", chats=GROUPS):
    """A chat admin asks to reveal the question at `position` of a group session now."""

    session_id: Int
    position: Int


# --- menus: what a command needs and was not given (bot/core/quiz_menus.py) ---


class QuizMenuPage(Tap, prefix="qm", chats=ANY_CHAT):
    """Turn a menu of quizzes (for the command `menu`, `bot.core.quiz_menus.MenuFor`) to `page`."""

    menu: Int
    page: Int


class QuizMenuChoice(Tap, prefix="qc", chats=ANY_CHAT):
    """A quiz chosen in a menu of quizzes for the command `menu`."""

    menu: Int
    quiz_id: Slug


class GroupQuizStart(Tap, prefix="gqs", chats=GROUPS):
    """A chat admin starts `quiz_id` for the chat from the menu: `seconds` a question, as quiz
    polls when `poll` is 1 (else buttons)."""

    quiz_id: Slug
    seconds: Int
    poll: Int


class AssignSetup(Tap, prefix="as", chats=ANY_CHAT):
    """Homework of `quiz_id` from the menu: `best` and `shuffle` (0 or 1) as toggled so far;
    `hours` 0 while they are being toggled, else the deadline, hours from now, chosen (then asked: as homework or as an
    exam?)."""

    quiz_id: Slug
    hours: Int
    best: Int
    shuffle: Int


class AssignAs(Tap, prefix="ah", chats=ANY_CHAT):
    """Homework of `quiz_id` from the menu, set now: until `hours` from now, with `best` and
    `shuffle` (0 or 1) as toggled, as an exam when `exam` is 1 (in the bank's minutes, as
    `/assign <quiz> <deadline> exam` without minutes)."""

    quiz_id: Slug
    hours: Int
    best: Int
    shuffle: Int
    exam: Int


class ReportChoice(Tap, prefix="rq", chats=PRIVATE):
    """The report of `quiz_id` as the file form `form` (an index of the report forms)."""

    quiz_id: Slug
    form: Int


class ExportChoice(Tap, prefix="xq", chats=PRIVATE):
    """`quiz_id` exported as format `form` (an index of the output formats)."""

    quiz_id: Slug
    form: Int


def kinds() -> tuple[type[Tap], ...]:
    """Every declared kind of button."""
    return tuple(_KINDS.values())


@lru_cache(maxsize=4096)
def decode(data: str | None) -> Tap | None:
    """The tap a button carries, or None for anything that is not ours (or is forged).

    Pure and cached: the dispatcher and the handler it picks share one decoding."""
    if not data or not data.isascii() or len(data) > MAX_BYTES:
        return None  # every declared field is ASCII (a lone surrogate cannot even be encoded)
    version, _, rest = data.partition(":")
    prefix, _, body = rest.partition(":")
    kind = _KINDS.get(prefix)
    if version != VERSION or kind is None:
        return None
    formats = kind.formats
    values = body.split(":") if body else []
    if len(values) != len(formats) or (not formats and rest != prefix):
        return None
    parsed = []
    for value, form in zip(values, formats, strict=True):
        if not form.pattern.fullmatch(value):
            return None
        parsed.append(form.parse(value))
    return cast(Callable[..., Tap], kind)(*parsed)
