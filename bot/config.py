"""The one configuration object, read from the environment (and a `.env` file) at start."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from content.rules import parse_timezone

DEFAULT_API_BASE_URL = "https://api.telegram.org/bot"
DEFAULT_CONTENT_DIR = Path(__file__).resolve().parent.parent / "content" / "banks"


class ConfigError(ValueError):
    """A setting is missing or malformed; the message is one line for the operator."""


@dataclass(frozen=True)
class Settings:
    token: str = field(repr=False)
    api_base_url: str = DEFAULT_API_BASE_URL
    api_base_file_url: str | None = None
    db_path: Path = Path("data/quiz.sqlite3")
    content_dir: Path = DEFAULT_CONTENT_DIR
    admin_ids: frozenset[int] = frozenset()
    default_language: str = "en"
    default_timezone: str = "UTC"
    webhook_url: str | None = None
    webhook_secret: str | None = field(default=None, repr=False)
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    log_level: str = "INFO"
    poll_timeout: int = 30
    max_messages_per_second: float = 30.0
    group_seconds: int = 30  # a group question's time when /groupquiz names none
    group_min_seconds: int = 10  # shorter would need more than 20 sends a minute
    group_max_seconds: int = 600
    group_count_interval: float = 3.0  # least seconds between two redraws of a live count

    @property
    def file_base_url(self) -> str:
        if self.api_base_file_url:
            return self.api_base_file_url
        base = self.api_base_url
        if "/bot" in base:
            head, _, tail = base.rpartition("/bot")
            return f"{head}/file/bot{tail}"
        return base

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = dict(read_dotenv(Path(".env")))
        env.update(os.environ if environ is None else environ)

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        token = get("TELEGRAM_BOT_TOKEN")
        if not token:
            raise ConfigError("TELEGRAM_BOT_TOKEN is not set: put the token from @BotFather in it")
        try:
            admin_ids = frozenset(
                int(part) for part in (get("QUIZ_ADMIN_IDS") or "").split(",") if part.strip()
            )
        except ValueError:
            raise ConfigError("QUIZ_ADMIN_IDS must be comma-separated numeric user ids") from None
        try:
            port = int(get("QUIZ_WEBHOOK_PORT") or 8443)
            poll_timeout = int(get("QUIZ_POLL_TIMEOUT") or 30)
            max_rate = float(get("QUIZ_MAX_MESSAGES_PER_SECOND") or 30)
        except ValueError:
            raise ConfigError(
                "QUIZ_WEBHOOK_PORT, QUIZ_POLL_TIMEOUT and QUIZ_MAX_MESSAGES_PER_SECOND must be numbers"
            ) from None
        webhook_url = get("QUIZ_WEBHOOK_URL")
        webhook_secret = get("QUIZ_WEBHOOK_SECRET")
        if webhook_url and not webhook_secret:
            raise ConfigError("QUIZ_WEBHOOK_SECRET must be set when QUIZ_WEBHOOK_URL is")
        return cls(
            token=token,
            api_base_url=get("TELEGRAM_API_BASE_URL") or DEFAULT_API_BASE_URL,
            api_base_file_url=get("TELEGRAM_API_BASE_FILE_URL"),
            db_path=Path(get("QUIZ_DB_PATH") or "data/quiz.sqlite3"),
            content_dir=Path(get("QUIZ_CONTENT_DIR") or DEFAULT_CONTENT_DIR),
            admin_ids=admin_ids,
            default_language=(get("QUIZ_DEFAULT_LANGUAGE") or "en").lower(),
            default_timezone=_timezone(get("QUIZ_DEFAULT_TIMEZONE") or "UTC"),
            webhook_url=webhook_url,
            webhook_secret=webhook_secret,
            webhook_listen=get("QUIZ_WEBHOOK_LISTEN") or "0.0.0.0",
            webhook_port=port,
            log_level=(get("LOG_LEVEL") or "INFO").upper(),
            poll_timeout=poll_timeout,
            max_messages_per_second=max_rate,
        )


def _timezone(text: str) -> str:
    parsed = parse_timezone(text)
    if parsed is None:
        raise ConfigError(f"QUIZ_DEFAULT_TIMEZONE {text!r} is not a time zone such as Africa/Lagos")
    return parsed


def read_dotenv(path: Path) -> dict[str, str]:
    """`KEY=value` lines of a .env file; comments, blanks and `export ` prefixes allowed."""
    if not path.is_file():
        return {}
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        else:
            value = value.split(" #", 1)[0].strip()  # an inline comment, as Compose reads it
        values[key.strip()] = value
    return values
