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
    # group and channel quizzes: one running session per chat, its questions, its answers
    """
    CREATE TABLE group_sessions (
        id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        chat_type TEXT NOT NULL,
        quiz_id TEXT NOT NULL,
        question_ids TEXT NOT NULL,
        seconds INTEGER NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('buttons', 'poll')),
        language TEXT NOT NULL,
        started_by INTEGER,
        started_at REAL NOT NULL,
        position INTEGER NOT NULL DEFAULT 0,
        finished_at REAL,
        outcome TEXT
    );
    CREATE UNIQUE INDEX group_sessions_one_running ON group_sessions(chat_id)
        WHERE finished_at IS NULL;
    CREATE INDEX group_sessions_by_chat ON group_sessions(chat_id, started_at);
    CREATE TABLE group_questions (
        session_id INTEGER NOT NULL REFERENCES group_sessions(id),
        position INTEGER NOT NULL,
        question_id TEXT NOT NULL,
        message_id INTEGER NOT NULL,
        poll_id TEXT UNIQUE,
        asked_at REAL NOT NULL,
        deadline REAL NOT NULL,
        revealed_at REAL,
        PRIMARY KEY (session_id, position)
    );
    CREATE TABLE group_answers (
        session_id INTEGER NOT NULL REFERENCES group_sessions(id),
        position INTEGER NOT NULL,
        question_id TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        chosen INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        elapsed REAL NOT NULL,
        points INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        PRIMARY KEY (session_id, position, user_id)
    );
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
