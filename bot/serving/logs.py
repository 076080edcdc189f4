"""The log stream of the bot's processes: one line per record on stderr, every secret replaced
(the bot, `python -m bot`, and its toast process, bot/serving/toaster.py, write to the same
stream)."""

from __future__ import annotations

import logging
import sys

from bot.config import Settings


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
