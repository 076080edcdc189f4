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
    # 2: the tutor: spaced-repetition cards and their log, review sessions, time zones, reminders
    """
    ALTER TABLE attempts ADD COLUMN kind TEXT NOT NULL DEFAULT 'quiz';
    ALTER TABLE users ADD COLUMN timezone TEXT;
    ALTER TABLE users ADD COLUMN remind_at TEXT;
    ALTER TABLE users ADD COLUMN last_reminded TEXT;
    CREATE INDEX users_with_reminders ON users(remind_at) WHERE remind_at IS NOT NULL;
    CREATE TABLE cards (
        user_id INTEGER NOT NULL REFERENCES users(user_id),
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        card TEXT NOT NULL,
        due REAL NOT NULL,
        last_review REAL,
        PRIMARY KEY (user_id, quiz_id, question_id)
    );
    CREATE INDEX cards_due ON cards(user_id, due);
    CREATE TABLE answers_v2 (
        id INTEGER PRIMARY KEY,
        attempt_id INTEGER NOT NULL REFERENCES attempts(id),
        user_id INTEGER NOT NULL,
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        chosen INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        UNIQUE (attempt_id, quiz_id, question_id)
    );
    INSERT INTO answers_v2 SELECT id, attempt_id, user_id, quiz_id, question_id, chosen,
        correct, answered_at FROM answers;
    DROP TABLE answers;
    ALTER TABLE answers_v2 RENAME TO answers;
    CREATE INDEX answers_by_user_question ON answers(user_id, quiz_id, question_id, answered_at);
    CREATE TABLE review_log (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        rating INTEGER NOT NULL,
        reviewed_at REAL NOT NULL,
        answer_id INTEGER NOT NULL REFERENCES answers(id)
    );
    CREATE INDEX answers_by_user_time ON answers(user_id, answered_at);
    """,
    # admin content: banks changed through the bot, retired questions, posted questions and
    # their answers, push schedules, and the audit log (storage/content_store.py)
    """
    CREATE TABLE content_banks (
        quiz_id TEXT PRIMARY KEY,
        yaml TEXT NOT NULL,
        updated_at REAL NOT NULL,
        updated_by INTEGER NOT NULL
    );
    CREATE TABLE retired_questions (
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        text TEXT NOT NULL,
        retired_at REAL NOT NULL,
        retired_by INTEGER NOT NULL,
        PRIMARY KEY (quiz_id, question_id)
    );
    CREATE TABLE posts (
        id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        message_id INTEGER,
        posted_at REAL NOT NULL,
        posted_by INTEGER NOT NULL,
        revealed_at REAL,
        UNIQUE (chat_id, quiz_id, question_id)
    );
    CREATE TABLE post_answers (
        post_id INTEGER NOT NULL REFERENCES posts(id),
        user_id INTEGER NOT NULL,
        chosen INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        PRIMARY KEY (post_id, user_id)
    );
    CREATE TABLE push_schedules (
        id INTEGER PRIMARY KEY,
        quiz_id TEXT NOT NULL,
        chat TEXT NOT NULL,
        minute_of_day INTEGER NOT NULL,
        created_at REAL NOT NULL,
        created_by INTEGER NOT NULL,
        UNIQUE (quiz_id, chat)
    );
    CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        admin_id INTEGER NOT NULL,
        action TEXT NOT NULL,
        quiz_id TEXT,
        detail TEXT NOT NULL DEFAULT ''
    );
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
