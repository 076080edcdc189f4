"""Schema migrations, applied in order; `PRAGMA user_version` records how many have run."""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: learners, attempts and their answers
    """
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        first_name TEXT NOT NULL DEFAULT '',
        telegram_language TEXT,
        language TEXT,
        active INTEGER NOT NULL DEFAULT 1,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(user_id),
        quiz_id TEXT NOT NULL,
        question_ids TEXT NOT NULL,
        total INTEGER NOT NULL,
        started_at REAL NOT NULL,
        finished_at REAL,
        score INTEGER
    );
    CREATE UNIQUE INDEX attempts_one_running ON attempts(user_id, quiz_id)
        WHERE finished_at IS NULL;
    CREATE INDEX attempts_by_user ON attempts(user_id, quiz_id, finished_at);
    CREATE TABLE answers (
        id INTEGER PRIMARY KEY,
        attempt_id INTEGER NOT NULL REFERENCES attempts(id),
        user_id INTEGER NOT NULL,
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        chosen INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        UNIQUE (attempt_id, question_id)
    );
    CREATE INDEX answers_by_user_question ON answers(user_id, quiz_id, question_id, answered_at);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
