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
    # 5: a leaderboard shows each member's latest name; without this index that lookup
    # scanned every group answer once per member (15 s for 800,000 answers; bench/queries.py)
    """
    CREATE INDEX group_answers_by_user ON group_answers(user_id, answered_at);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
