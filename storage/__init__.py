"""SQLite storage behind one interface, `Repository`. No Telegram here."""

from storage.errors import StorageError
from storage.repository import (
    REVIEW,
    REVIEW_QUIZ_ID,
    Answer,
    AnswerOutcome,
    Attempt,
    CardUpdate,
    QuizRecord,
    Repository,
    StoredCard,
    User,
    attempt_item_parts,
    review_item,
)

__all__ = [
    "REVIEW",
    "REVIEW_QUIZ_ID",
    "Answer",
    "AnswerOutcome",
    "Attempt",
    "CardUpdate",
    "QuizRecord",
    "Repository",
    "StorageError",
    "StoredCard",
    "User",
    "attempt_item_parts",
    "review_item",
]
