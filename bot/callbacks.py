"""The callback-data codec: typed, versioned, at most 64 bytes, never trusted.

Decoding only proves the data has our shape; handlers check it against stored state.
Layout: `<version>:<kind>:<fields...>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

VERSION = "1"
MAX_BYTES = 64

_INT = r"(0|[1-9][0-9]{0,17})"
_SLUG = r"([a-z0-9]+(?:-[a-z0-9]+)*)"
_LANGUAGE = r"([a-z]{2,3}(?:-[a-z0-9]{2,8})?)"


@dataclass(frozen=True)
class AnswerTap:
    """A learner chose `option` for the question at `position` of attempt `attempt_id`."""

    attempt_id: int
    position: int
    option: int

    def encode(self) -> str:
        return _checked(f"{VERSION}:a:{self.attempt_id}:{self.position}:{self.option}")


@dataclass(frozen=True)
class OpenQuiz:
    """Start a quiz, or continue its running attempt (a finished one starts anew)."""

    quiz_id: str

    def encode(self) -> str:
        return _checked(f"{VERSION}:q:{self.quiz_id}")


@dataclass(frozen=True)
class PreviewQuiz:
    quiz_id: str

    def encode(self) -> str:
        return _checked(f"{VERSION}:p:{self.quiz_id}")


@dataclass(frozen=True)
class ChooseLanguage:
    language: str

    def encode(self) -> str:
        return _checked(f"{VERSION}:l:{self.language}")


@dataclass(frozen=True)
class StartReview:
    """Start or continue a review session of the questions due now."""

    def encode(self) -> str:
        return _checked(f"{VERSION}:rv")


@dataclass(frozen=True)
class ListQuizzes:
    def encode(self) -> str:
        return _checked(f"{VERSION}:ls")


@dataclass(frozen=True)
class PostAnswer:
    """A chat member chose `option` of the question posted as post `post_id` (admin push)."""

    post_id: int
    option: int

    def encode(self) -> str:
        return _checked(f"{VERSION}:adp:{self.post_id}:{self.option}")


@dataclass(frozen=True)
class ConfirmDraft:
    """An admin confirms the previewed question draft `nonce` (`/addquestion`)."""

    nonce: int

    def encode(self) -> str:
        return _checked(f"{VERSION}:adc:{self.nonce}")


@dataclass(frozen=True)
class CancelDraft:
    nonce: int

    def encode(self) -> str:
        return _checked(f"{VERSION}:adx:{self.nonce}")


@dataclass(frozen=True)
class GroupAnswer:
    """A member of a chat chose `option` for the question at `position` of a group session."""

    session_id: int
    position: int
    option: int

    def encode(self) -> str:
        return _checked(f"{VERSION}:ga:{self.session_id}:{self.position}:{self.option}")


@dataclass(frozen=True)
class GroupReveal:
    """A chat admin asks to reveal the question at `position` of a group session now."""

    session_id: int
    position: int

    def encode(self) -> str:
        return _checked(f"{VERSION}:gr:{self.session_id}:{self.position}")


Callback = (
    AnswerTap
    | OpenQuiz
    | PreviewQuiz
    | ChooseLanguage
    | ListQuizzes
    | StartReview
    | PostAnswer
    | ConfirmDraft
    | CancelDraft
    | GroupAnswer
    | GroupReveal
)

# Patterns for handlers that take only the admin feature's buttons (`ad…` kinds).
ADMIN_PATTERN = rf"^{VERSION}:ad"
DRAFT_PATTERN = rf"^{VERSION}:ad[cx]:"
GROUP_KINDS = (GroupAnswer, GroupReveal)

_PATTERNS: tuple[tuple[re.Pattern[str], type], ...] = (
    (re.compile(rf"{VERSION}:a:{_INT}:{_INT}:{_INT}"), AnswerTap),
    (re.compile(rf"{VERSION}:q:{_SLUG}"), OpenQuiz),
    (re.compile(rf"{VERSION}:p:{_SLUG}"), PreviewQuiz),
    (re.compile(rf"{VERSION}:l:{_LANGUAGE}"), ChooseLanguage),
    (re.compile(rf"{VERSION}:ls"), ListQuizzes),
    (re.compile(rf"{VERSION}:rv"), StartReview),
    (re.compile(rf"{VERSION}:adp:{_INT}:{_INT}"), PostAnswer),
    (re.compile(rf"{VERSION}:adc:{_INT}"), ConfirmDraft),
    (re.compile(rf"{VERSION}:adx:{_INT}"), CancelDraft),
    (re.compile(rf"{VERSION}:ga:{_INT}:{_INT}:{_INT}"), GroupAnswer),
    (re.compile(rf"{VERSION}:gr:{_INT}:{_INT}"), GroupReveal),
)
_INT_KINDS: tuple[type, ...] = (
    AnswerTap,
    PostAnswer,
    ConfirmDraft,
    CancelDraft,
    GroupAnswer,
    GroupReveal,
)


def _checked(data: str) -> str:
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"callback data over {MAX_BYTES} bytes: {data!r}")
    return data


def decode(data: str | None) -> Callback | None:
    """The callback a button carries, or None for anything that is not ours (or is forged)."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    for pattern, kind in _PATTERNS:
        match = pattern.fullmatch(data)
        if match:
            if kind in _INT_KINDS:
                return kind(*(int(group) for group in match.groups()))
            return kind(*match.groups())
    return None


def is_group_callback(data: object) -> bool:
    """For the group feature's CallbackQueryHandler: a tap on a group quiz's button."""
    return isinstance(data, str) and isinstance(decode(data), GROUP_KINDS)
