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


def test_network_defaults_are_loopback_and_off() -> None:
    settings = Settings.from_env({"TELEGRAM_BOT_TOKEN": "1:x"})
    assert settings.webhook_listen == "127.0.0.1"
    assert settings.health_port is None
    assert settings.startup_timeout == 300
    settings = Settings.from_env(
        {"TELEGRAM_BOT_TOKEN": "1:x", "QUIZ_HEALTH_PORT": "8080", "QUIZ_STARTUP_TIMEOUT": "2.5"}
    )
    assert settings.health_port == 8080
    assert settings.startup_timeout == 2.5
    assert settings.webhook_allow is None and settings.trusted_proxies == ()


def test_the_webhook_allowlist_and_trusted_proxies() -> None:
    settings = Settings.from_env(
        {
            "TELEGRAM_BOT_TOKEN": "1:x",
            "QUIZ_WEBHOOK_ALLOW": "Telegram",
            "QUIZ_TRUSTED_PROXIES": " 10.0.0.0/8, 127.0.0.1 ,::1, 192.168.1.7/24,",
        }
    )
    assert settings.webhook_allow == "telegram"
    assert [str(n) for n in settings.trusted_proxies] == [
        "10.0.0.0/8", "127.0.0.1/32", "::1/128", "192.168.1.0/24",
    ]  # fmt: skip
    off = Settings.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "QUIZ_WEBHOOK_ALLOW": "off"})
    assert off.webhook_allow is None


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"QUIZ_HEALTH_PORT": "http"}, "QUIZ_HEALTH_PORT"),
        ({"QUIZ_HEALTH_PORT": "70000"}, "QUIZ_HEALTH_PORT"),
        ({"QUIZ_STARTUP_TIMEOUT": "-1"}, "QUIZ_STARTUP_TIMEOUT"),
        (
            {"QUIZ_WEBHOOK_URL": "https://h/healthz", "QUIZ_WEBHOOK_SECRET": "s"},
            "/healthz",
        ),
        ({"QUIZ_WEBHOOK_URL": "https://h/x", "QUIZ_WEBHOOK_SECRET": "a b"}, "QUIZ_WEBHOOK_SECRET"),
        ({"QUIZ_WEBHOOK_URL": "https://h/x", "QUIZ_WEBHOOK_SECRET": "x" * 257}, "256"),
        ({"QUIZ_WEBHOOK_ALLOW": "all"}, "QUIZ_WEBHOOK_ALLOW 'all' must be telegram"),
        ({"QUIZ_TRUSTED_PROXIES": "10.0.0.1, proxy.local"}, "'proxy.local' is not an IP"),
        ({"QUIZ_TRUSTED_PROXIES": "10.0.0.300"}, "QUIZ_TRUSTED_PROXIES"),
        ({"QUIZ_TRUSTED_PROXIES": "10.0.0.0/33"}, "QUIZ_TRUSTED_PROXIES"),
    ],
)
def test_bad_network_settings_are_one_clear_error(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env({"TELEGRAM_BOT_TOKEN": "1:x", **environ})


def test_the_toast_process_is_on_where_two_cpus_are_usable(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings.from_env({"TELEGRAM_BOT_TOKEN": "1:x"})
    assert settings.toast_process == "auto"
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1})
    assert settings.uses_toast_process
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {1})
    assert not settings.uses_toast_process
    on = Settings.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "QUIZ_TOAST_PROCESS": "ON"})
    assert on.uses_toast_process
    off = Settings.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "QUIZ_TOAST_PROCESS": "off"})
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1})
    assert not off.uses_toast_process


@pytest.mark.parametrize("value", ["yes", "1", "auto-ish", "of"])
def test_a_bad_toast_process_setting_is_one_clear_error(value: str) -> None:
    with pytest.raises(ConfigError, match=f"QUIZ_TOAST_PROCESS '{value}' must be auto, on or off"):
        Settings.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "QUIZ_TOAST_PROCESS": value})


def test_auto_counts_the_cpus_where_no_affinity_is_known(monkeypatch: pytest.MonkeyPatch) -> None:
    """macOS and Windows have no `os.sched_getaffinity` (the sandbox runs there too)."""
    settings = Settings.from_env({"TELEGRAM_BOT_TOKEN": "1:x"})
    monkeypatch.delattr("os.sched_getaffinity")
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    assert settings.uses_toast_process
    monkeypatch.setattr("os.cpu_count", lambda: None)  # unknown: one
    assert not settings.uses_toast_process
