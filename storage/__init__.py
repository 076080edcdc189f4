"""SQLite storage behind one interface, `Repository`. No Telegram here."""

from storage.database_file import (
    ClaimedDatabase,
    DatabaseInUse,
    DatabaseLost,
    DatabaseRefused,
    claim_database,
)
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
    "ClaimedDatabase",
    "DatabaseInUse",
    "DatabaseLost",
    "DatabaseRefused",
    "QuizRecord",
    "Repository",
    "StorageError",
    "StoredCard",
    "User",
    "attempt_item_parts",
    "claim_database",
    "review_item",
]
