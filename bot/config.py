"""The one configuration object, read from the environment (and a `.env` file) at start."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from content.rules import parse_timezone

DEFAULT_API_BASE_URL = "https://api.telegram.org/bot"
HEALTH_PATH = "/healthz"
_SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what Telegram's setWebhook accepts
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
    webhook_listen: str = "127.0.0.1"  # behind a reverse proxy; 0.0.0.0 in a container
    webhook_port: int = 8443
    health_port: int | None = None  # GET /healthz on 127.0.0.1 at this port; None: off
    # the teacher's dashboard (a Mini App): its public https URL turns it on; served on the
    # webhook's listener, or in polling mode on 127.0.0.1 at app_port
    app_url: str | None = None
    app_port: int | None = None
    startup_timeout: float = 300.0  # seconds to keep trying to reach the Bot API at start
    commands_retry_seconds: float = 10.0  # first wait before the command menus are tried again
    commands_retries: int = 8  # then doubling, at most 10 minutes apart, this many times
    log_level: str = "INFO"
    poll_timeout: int = 30
    max_messages_per_second: float = 30.0
    group_seconds: int = 30  # a group question's time when /groupquiz names none
    group_min_seconds: int = 10  # shorter would need more than 20 sends a minute
    group_max_seconds: int = 600
    group_count_interval: float = 3.0  # least seconds between two redraws of a live count
    homework_min_seconds: int = 60  # the shortest homework deadline (`/assign ... 1m`)
    homework_remind_before: float = 3600.0  # the one nudge to who started and did not finish
    # What the picture files of imported banks may weigh together in SQLite (each bank's at
    # most 19 MiB, content/images.py): an /import past it is refused.
    stored_pictures_max_bytes: int = 256 * 1024 * 1024
    # Group toasts sent by a child process, on another core (bot/serving/toaster.py): "auto"
    # (when this process may use 2 CPUs or more), "on" or "off"
    toast_process: str = "auto"

    @property
    def uses_toast_process(self) -> bool:
        if self.toast_process == "auto":
            return _usable_cpus() >= 2
        return self.toast_process == "on"

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
        if webhook_secret and not _SECRET_TOKEN.fullmatch(webhook_secret):
            raise ConfigError(
                "QUIZ_WEBHOOK_SECRET must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -"
            )
        if webhook_url and webhook_path(webhook_url) == HEALTH_PATH:
            raise ConfigError(
                f"QUIZ_WEBHOOK_URL cannot end in {HEALTH_PATH}: that path is the health check"
            )
        app_url = get("QUIZ_APP_URL")
        if app_url is not None and (
            urlsplit(app_url).scheme != "https" or not urlsplit(app_url).hostname
        ):
            raise ConfigError(
                f"QUIZ_APP_URL {app_url!r} must be an https:// URL (Telegram opens only those)"
            )
        if app_url is not None and not urlsplit(app_url).path.startswith("/app"):
            raise ConfigError(
                f"QUIZ_APP_URL {app_url!r} must end in /app/, where the bot serves it"
            )
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
            webhook_listen=get("QUIZ_WEBHOOK_LISTEN") or "127.0.0.1",
            webhook_port=port,
            health_port=_health_port(get("QUIZ_HEALTH_PORT")),
            app_url=app_url,
            app_port=_port("QUIZ_APP_PORT", get("QUIZ_APP_PORT")),
            startup_timeout=_startup_timeout(get("QUIZ_STARTUP_TIMEOUT")),
            log_level=(get("LOG_LEVEL") or "INFO").upper(),
            poll_timeout=poll_timeout,
            max_messages_per_second=max_rate,
            toast_process=_toast_process(get("QUIZ_TOAST_PROCESS")),
        )


def webhook_path(url: str) -> str:
    """The path the webhook is served on: the URL's, `/` when it has none."""
    return urlsplit(url).path or "/"


def _health_port(text: str | None) -> int | None:
    return _port("QUIZ_HEALTH_PORT", text)


def _port(name: str, text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ConfigError(f"{name} {text!r} must be a port number, 1 to 65535")
    return int(text)


def _startup_timeout(text: str | None) -> float:
    if text is None:
        return 300.0
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise ConfigError(f"QUIZ_STARTUP_TIMEOUT {text!r} must be a number of seconds, 0 or more")
    return seconds


TOAST_PROCESS_MODES = ("auto", "on", "off")


def _usable_cpus() -> int:
    """The CPUs this process may run on (Linux); where that is not known (macOS, Windows),
    the machine's."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _toast_process(text: str | None) -> str:
    mode = (text or "auto").lower()
    if mode not in TOAST_PROCESS_MODES:
        raise ConfigError(f"QUIZ_TOAST_PROCESS {text!r} must be auto, on or off")
    return mode


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
