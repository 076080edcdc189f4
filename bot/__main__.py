"""`python -m bot` (and `quiz-tutor`): run the bot with long polling, or a webhook if configured;
`python -m bot sandbox`: the bot with an embedded Bot API and a chat page (bot/sandbox/run.py);
`python -m bot commands`: the table of every command, as README.md shows it."""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import sys

from telegram.error import InvalidToken

from bot.app import COMMANDS, QuizApplication, build_application
from bot.config import Settings
from bot.core.commands import markdown_table
from bot.core.i18n import FALLBACK, translate
from bot.sandbox import run
from bot.serving import lifecycle
from bot.serving.logs import configured
from storage import ClaimedDatabase, StorageError, claim_database

EXIT_DATABASE_LOST = 3  # the database file was deleted or replaced under the running bot


class _DatabaseLoss:
    """Called when the database file is lost under the running bot: stops the bot the way an
    operator would (SIGTERM: pending work settles, nothing more is acknowledged), so that
    `main` returns EXIT_DATABASE_LOST and a supervisor starts it again."""

    def __init__(self) -> None:
        self.happened = False

    def __call__(self) -> None:
        self.happened = True
        os.kill(os.getpid(), signal.SIGTERM)


def _claim_database(settings: Settings) -> ClaimedDatabase | None:
    """Lock and check the database file before anything else (no network yet): a file that is
    in use, empty, not SQLite or damaged stops the bot here with one line."""
    try:
        return claim_database(settings.db_path)
    except (StorageError, OSError) as error:
        print(f"quiz-tutor: cannot use the database: {error}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    args = _arguments().parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "sandbox":
        return run.main(args)
    if args.command == "commands":
        print(command_table(), end="")
        return 0
    return _run_configured()


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quiz-tutor",
        description="Quiz Tutor, a Telegram quiz bot. Without a command: run the bot, "
        "configured by the environment (TELEGRAM_BOT_TOKEN, ...; see the README).",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    sandbox = commands.add_parser(
        "sandbox",
        help="try the bot without Telegram: an embedded Bot API and a chat page in the browser",
        description="The real bot behind an embedded Bot API, and a chat page on "
        "http://127.0.0.1:PORT where simulated people use it. No token, no network.",
    )
    run.add_arguments(sandbox)
    commands.add_parser(
        "commands",
        help="print the table of every command (Markdown), as README.md shows it",
        description="Every command the bot declares: who may use it, where, its usage, what "
        "it does and an example. README.md's table is this output.",
    )
    return parser


def command_table() -> str:
    return markdown_table(COMMANDS, lambda key: translate(FALLBACK, key))


def _run_configured() -> int:
    settings = configured("quiz-tutor")
    if settings is None:
        return 2
    database = _claim_database(settings)
    if database is None:
        return 2
    loss = _DatabaseLoss()
    application = build_application(settings, database=database, on_database_lost=loss)
    try:
        _run(application, settings)
    except InvalidToken:
        print(
            "quiz-tutor: Telegram rejected TELEGRAM_BOT_TOKEN; check it with @BotFather",
            file=sys.stderr,
        )
        return 2
    except lifecycle.StartupError as error:
        print(f"quiz-tutor: {error}", file=sys.stderr)
        return 2
    except (StorageError, sqlite3.Error, OSError) as error:
        # a database that cannot be opened or migrated: one line, and no crash loop of
        # tracebacks under a restart policy
        print(f"quiz-tutor: cannot use the database {settings.db_path}: {error}", file=sys.stderr)
        return 2
    return EXIT_DATABASE_LOST if loss.happened else 0


def _run(application: QuizApplication, settings: Settings) -> None:
    """Long polling, or the webhook server; until SIGINT/SIGTERM (bot/serving/lifecycle.py)."""
    lifecycle.run(application, settings)


if __name__ == "__main__":
    sys.exit(main())
