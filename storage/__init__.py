"""SQLite storage: one `Database` (storage/database.py), the stores that use it, and `Storage`,
which opens them together. No Telegram here."""

from storage.answer_batch import AnswerOutcome
from storage.card_reviews import CardReview, Reviewed
from storage.database import Database, Transaction
from storage.database_file import (
    ClaimedDatabase,
    DatabaseInUse,
    DatabaseLost,
    DatabaseRefused,
    claim_database,
)
from storage.errors import StorageError
from storage.learner_store import (
    EXAM,
    PRACTICE,
    REVIEW,
    REVIEW_QUIZ_ID,
    Answer,
    Attempt,
    AwaitedReply,
    QuizRecord,
    StoredCard,
    User,
    attempt_item_parts,
    names_items,
    practice_of,
    review_item,
)
from storage.stores import Storage

__all__ = [
    "EXAM",
    "PRACTICE",
    "REVIEW",
    "REVIEW_QUIZ_ID",
    "Answer",
    "AnswerOutcome",
    "Attempt",
    "AwaitedReply",
    "CardReview",
    "ClaimedDatabase",
    "Database",
    "DatabaseInUse",
    "DatabaseLost",
    "DatabaseRefused",
    "QuizRecord",
    "Reviewed",
    "Storage",
    "StorageError",
    "StoredCard",
    "Transaction",
    "User",
    "attempt_item_parts",
    "claim_database",
    "names_items",
    "practice_of",
    "review_item",
]
