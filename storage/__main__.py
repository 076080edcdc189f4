"""`python -m storage`: the operator's tools for the database.

    python -m storage backup DEST [--force] [--db PATH]
    python -m storage restore BACKUP [--force] [--db PATH]
    python -m storage prune --inactive-days N [--dry-run] [--db PATH]

The database is `--db`, else `QUIZ_DB_PATH` (from the environment or `.env`, as the bot reads
it), else `data/quiz.sqlite3`. A backup runs beside the running bot; a restore and a prune need
the bot stopped (they take the database's lock). Exit codes: 0 done, 2 refused (one line on
stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import NoReturn

from storage.backup import backup, restore
from storage.errors import StorageError
from storage.stores import Storage

DEFAULT_DB_PATH = Path("data/quiz.sqlite3")
DAY = 86_400


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


# each command: (its line in the list of commands, its own --help)
_ABOUT = {
    "backup": (
        "a verified copy of the database, taken while the bot runs",
        "Copy the database, consistently, while the bot runs; verify the copy "
        "(PRAGMA quick_check) and print its size and row counts.",
    ),
    "restore": (
        "put a backup in the database's place (the bot must be stopped)",
        "Check BACKUP, move the current database (with its write-ahead log) aside "
        "as <db>.replaced-<time>, and put a copy of BACKUP in its place. Needs the bot stopped.",
    ),
    "prune": (
        "delete the data of learners inactive for N days (the bot must be stopped)",
        "Delete the data of every learner with no activity (joining, a quiz "
        "started, an answer anywhere) for N days, exactly as /forgetme does, and print what "
        "was removed. Needs the bot stopped.",
    ),
}


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m storage", description="Quiz Tutor's database tools.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    command = {
        name: commands.add_parser(name, help=line, description=full)
        for name, (line, full) in _ABOUT.items()
    }
    command["backup"].add_argument("dest", type=Path, help="the backup file to write")
    command["backup"].add_argument(
        "--force", action="store_true", help="overwrite DEST if it exists"
    )
    command["restore"].add_argument("backup", type=Path, help="the backup file to restore")
    command["restore"].add_argument(
        "--force", action="store_true", help="replace an existing database (kept aside)"
    )
    command["prune"].add_argument("--inactive-days", type=int, required=True, metavar="N")
    command["prune"].add_argument(
        "--dry-run", action="store_true", help="only say what would be removed"
    )
    for each in command.values():
        each.add_argument("--db", type=Path, help="the database (default: QUIZ_DB_PATH)")
    return parser


def database_path(given: Path | None) -> Path:
    """`--db`, else QUIZ_DB_PATH as `python -m bot` reads it, else the default."""
    if given is not None:
        return given
    # the same .env reader as the bot's configuration, so both find the same file
    from bot.config import read_dotenv

    configured = os.environ.get("QUIZ_DB_PATH") or read_dotenv(Path(".env")).get("QUIZ_DB_PATH")
    return Path(configured.strip()) if configured and configured.strip() else DEFAULT_DB_PATH


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    db_path = database_path(args.db)
    try:
        if args.command == "backup":
            print(
                f"backup of {db_path.absolute()} written to",
                backup(db_path, args.dest, force=args.force).describe(),
            )
        elif args.command == "restore":
            restored, aside = restore(args.backup, db_path, force=args.force, now=time.time())
            print(f"restored {args.backup.absolute()} to {restored.describe()}")
            if aside is not None:
                print(f"the database it replaced is kept as {aside}")
        else:
            if args.inactive_days < 1:
                raise StorageError("--inactive-days must be 1 or more")
            if not db_path.exists():  # opening would create it
                raise StorageError(
                    f"no database at {db_path.absolute()}: check QUIZ_DB_PATH or --db"
                )
            print(asyncio.run(_prune(db_path, args.inactive_days, args.dry_run)))
    except (StorageError, OSError) as error:
        print(f"python -m storage {args.command}: {error}", file=sys.stderr)
        return 2
    return 0


async def _prune(db_path: Path, days: int, dry_run: bool) -> str:
    now = time.time()
    before = now - days * DAY
    storage = await Storage.open(db_path)
    try:
        forgotten = await storage.privacy.prune_inactive(before, now, dry_run=dry_run)
    finally:
        await storage.close()
    since = datetime.fromtimestamp(before, UTC).strftime("%Y-%m-%d %H:%M UTC")
    verb = "would prune" if dry_run else "pruned"
    tail = "; nothing changed (--dry-run)" if dry_run else ""
    return f"{verb} learners inactive for {days} days (nothing since {since}): {forgotten.describe()}{tail}"


if __name__ == "__main__":
    sys.exit(main())
