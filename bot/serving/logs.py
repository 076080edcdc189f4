"""The log stream of the bot's processes: one line per record on stderr, every secret replaced
(the bot, `python -m bot`, and its toast process, bot/serving/toaster.py, write to the same
stream)."""

from __future__ import annotations

import logging
import sys

from bot.config import ConfigError, Settings


class RedactingFormatter(logging.Formatter):
    """Formats records, tracebacks included, with every secret replaced."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self._secrets = [secret for secret in secrets if secret]

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self._secrets:
            text = text.replace(secret, "<secret>")
        return text


def configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter([settings.token, settings.webhook_secret or ""]))
    logging.basicConfig(level=settings.log_level, handlers=[handler])
    # httpx logs every request URL, and the URL carries the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)


def configured(program: str) -> Settings | None:
    """The settings from the environment, with logging configured by them; None after one line
    on stderr (`program: what is wrong`) when they are not valid (the caller exits with 2)."""
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"{program}: {error}", file=sys.stderr)
        return None
    configure_logging(settings)
    return settings
