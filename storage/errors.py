"""The storage layer's one error type."""

from __future__ import annotations

import sqlite3

# SQLite's answers when the database, not the program, is at fault (extended codes share these
# prefixes: SQLITE_READONLY_DBMOVED, SQLITE_IOERR_WRITE...)
_REFUSALS = (
    "SQLITE_FULL",
    "SQLITE_READONLY",
    "SQLITE_IOERR",
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
    "SQLITE_CANTOPEN",
)


class StorageError(RuntimeError):
    """The database could not be read or written (disk full, read-only file, corruption)."""

    @property
    def refused(self) -> bool:
        """Whether the database refused (full, read-only, I/O error, busy) rather than a
        statement being wrong: the first is the machine's to fix, the second a bug."""
        cause = self.__cause__
        name = getattr(cause, "sqlite_errorname", "") if isinstance(cause, sqlite3.Error) else ""
        return name.startswith(_REFUSALS)
