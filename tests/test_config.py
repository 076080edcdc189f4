from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, read_dotenv


def test_dotenv_quotes_comments_and_export(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "# a comment\n"
        "export TELEGRAM_BOT_TOKEN=123:abc  # from @BotFather\n"
        "QUIZ_WEBHOOK_PORT=8443 # default\n"
        "QUIZ_DEFAULT_LANGUAGE='yo # not a comment'\n"
        "\n"
        "BROKEN LINE\n",
        encoding="utf-8",
    )
    assert read_dotenv(env) == {
        "TELEGRAM_BOT_TOKEN": "123:abc",
        "QUIZ_WEBHOOK_PORT": "8443",
        "QUIZ_DEFAULT_LANGUAGE": "yo # not a comment",
    }


def test_settings_from_environment() -> None:
    settings = Settings.from_env(
        {"TELEGRAM_BOT_TOKEN": "1:x", "QUIZ_ADMIN_IDS": "5, 7", "QUIZ_DEFAULT_LANGUAGE": "YO"}
    )
    assert settings.admin_ids == frozenset({5, 7})
    assert settings.default_language == "yo"
    assert settings.file_base_url == "https://api.telegram.org/file/bot"
    assert "1:x" not in repr(settings)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "TELEGRAM_BOT_TOKEN"),
        ({"TELEGRAM_BOT_TOKEN": "1:x", "QUIZ_ADMIN_IDS": "me"}, "QUIZ_ADMIN_IDS"),
        ({"TELEGRAM_BOT_TOKEN": "1:x", "QUIZ_WEBHOOK_URL": "https://h/x"}, "QUIZ_WEBHOOK_SECRET"),
    ],
)
def test_bad_settings_are_one_clear_error(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(environ)
