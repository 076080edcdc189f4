"""`python -m bot` (and `quiz-tutor`): run the bot with long polling, or a webhook if configured."""

from __future__ import annotations

import logging
import sys
from urllib.parse import urlsplit

from telegram import Update

from bot.app import build_application
from bot.config import ConfigError, Settings


class _RedactToken(logging.Filter):
    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self._token in message:
            record.msg = message.replace(self._token, "<token>")
            record.args = None
        return True


def _configure_logging(settings: Settings) -> None:
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    redact = _RedactToken(settings.token)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    # httpx logs every request URL, and the URL carries the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)


def main() -> int:
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"quiz-tutor: {error}", file=sys.stderr)
        return 2
    _configure_logging(settings)
    application = build_application(settings)
    if settings.webhook_url:
        application.run_webhook(
            listen=settings.webhook_listen,
            port=settings.webhook_port,
            url_path=urlsplit(settings.webhook_url).path.lstrip("/"),
            webhook_url=settings.webhook_url,
            secret_token=settings.webhook_secret,
            allowed_updates=Update.ALL_TYPES,
        )
    else:
        application.run_polling(allowed_updates=Update.ALL_TYPES, timeout=settings.poll_timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
