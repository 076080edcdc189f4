"""Run the real application against the stand-in, the way `run_polling` does."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from telegram import Update

from bot.app import QuizApplication, build_application
from bot.config import DEFAULT_CONTENT_DIR, Settings
from bot.sandbox import FakeBotApi, FakeUser

SEED = "model-pipeline-parallelism"  # the bank shipped in content/banks


def bank_folder(tmp_path: Path, *, seed: bool = False, **banks: str) -> Path:
    """A bank folder of the test's own: each of `banks` (file stem = YAML text), and a copy of
    the seed bank if `seed`."""
    folder = tmp_path / "banks"
    folder.mkdir()
    if seed:
        shutil.copy(DEFAULT_CONTENT_DIR / f"{SEED}.yaml", folder)
    for stem, text in banks.items():
        (folder / f"{stem}.yaml").write_text(text, encoding="utf-8")
    return folder


def make_settings(
    api: FakeBotApi, db_path: Path, *, admins_wrote: bool = True, **overrides: object
) -> Settings:
    """Settings for a bot on the stand-in. The bot's admins (`admin_ids`) have written to it
    before, unless `admins_wrote` is False: Telegram knows their private chats, so their
    command menus are set at start."""
    admins: Iterable[int] = overrides.get("admin_ids", ())  # type: ignore[assignment]
    for admin_id in admins if admins_wrote else ():
        api.private_chat(FakeUser(admin_id, "Admin"))
    values: dict[str, object] = {
        "token": api.token,
        "api_base_url": api.base_url,
        "db_path": db_path,
        "content_dir": DEFAULT_CONTENT_DIR,
        "poll_timeout": 1,
        "toast_process": "off",  # the suite's bots toast in-process; tests/group/test_toaster.py
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


def bank_settings(
    api: FakeBotApi,
    tmp_path: Path,
    banks: Mapping[str, str],
    *,
    seed: bool = False,
    **overrides: object,
) -> Settings:
    """A bot on the stand-in whose banks are the test's own (`bank_folder`), with its own
    database in `tmp_path`."""
    folder = bank_folder(tmp_path, seed=seed, **banks)
    return make_settings(api, tmp_path / "quiz.sqlite3", content_dir=folder, **overrides)


@asynccontextmanager
async def running_bot(
    settings: Settings, clock: Callable[[], float] | None = None
) -> AsyncIterator[QuizApplication]:
    application = build_application(settings, clock) if clock else build_application(settings)
    await application.initialize()
    assert application.post_init is not None
    await application.post_init(application)
    assert application.updater is not None
    await application.updater.start_polling(
        poll_interval=0, timeout=settings.poll_timeout, allowed_updates=Update.ALL_TYPES
    )
    await application.start()
    try:
        yield application
    finally:
        await application.updater.stop()
        await application.stop()
        await application.shutdown()
        assert application.post_shutdown is not None
        await application.post_shutdown(application)
