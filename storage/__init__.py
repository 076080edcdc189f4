"""SQLite storage behind one interface, `Repository`. No Telegram here."""

from storage.repository import (
    Answer,
    AnswerOutcome,
    Attempt,
    QuizRecord,
    Repository,
    StorageError,
    User,
)

__all__ = [
    "Answer",
    "AnswerOutcome",
    "Attempt",
    "QuizRecord",
    "Repository",
    "StorageError",
    "User",
]
