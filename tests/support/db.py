"""What a test reads straight from the bot's SQLite file, the way an operator would."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any


def rows(path: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(sql, params).fetchall()


def stored_answers(path: Path, user_id: int) -> list[str]:
    """The question ids of a learner's stored answers, in order; each has its card update."""
    answered = rows(path, "SELECT question_id FROM answers WHERE user_id=? ORDER BY id", user_id)
    logged = rows(path, "SELECT question_id FROM review_log WHERE user_id=? ORDER BY id", user_id)
    assert logged == answered  # one card update per stored answer
    return [question_id for (question_id,) in answered]


def audit_actions(path: Path) -> list[str]:
    """The audit log's actions, oldest first."""
    return [action for (action,) in rows(path, "SELECT action FROM audit_log ORDER BY id")]


def group_answerers(path: Path, **where: int) -> list[tuple[int, str]]:
    """(user id, name) of the group answers whose columns hold `where`'s values, by user id."""
    condition = " AND ".join(f"{column}=?" for column in where)
    sql = f"SELECT user_id, name FROM group_answers WHERE {condition} ORDER BY user_id"
    return [(int(user_id), str(name)) for user_id, name in rows(path, sql, *where.values())]


def chat_columns(path: Path) -> list[tuple[str, str]]:
    """Every (table, column) of the schema that names a chat: `chat_id`, `chat` or
    `..._chat_id`, read with PRAGMA (so a table added later is found too)."""
    tables = rows(
        path, "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
    )
    return [
        (table, column)
        for (table,) in tables
        for _, column, *_ in rows(path, f"PRAGMA table_info({table})")
        if column in ("chat_id", "chat") or column.endswith("_chat_id")
    ]


def rows_of_chat(path: Path, chat_id: int) -> dict[str, int]:
    """How many rows of each table with a chat column name `chat_id`."""
    return {
        table: rows(
            path, f"SELECT COUNT(*) FROM {table} WHERE {column} IN (?, ?)", chat_id, str(chat_id)
        )[0][0]
        for table, column in chat_columns(path)
    }


def whole_database(path: Path) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every table's rows, to compare before and after."""
    tables = rows(path, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
    return [(name, sorted(rows(path, f"SELECT * FROM {name}"), key=repr)) for (name,) in tables]
