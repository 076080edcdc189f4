"""docker-compose.yml as issue 11 deploys the bot: the webhook server listens on every
interface inside the container only, the port is published on the host's loopback, the
healthcheck asks /healthz, and daily backups are there but off by default."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"


def _services() -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["services"]
    return services


def test_the_webhook_listens_everywhere_in_the_container_and_is_published_on_loopback() -> None:
    bot = _services()["bot"]
    assert bot["environment"]["QUIZ_WEBHOOK_LISTEN"] == "0.0.0.0"
    port = bot["environment"]["QUIZ_WEBHOOK_PORT"]
    assert bot["ports"] == [f"127.0.0.1:{port}:{port}"]
    assert bot["restart"] == "unless-stopped"  # exit codes 2 and 3 are restarted


def test_the_healthcheck_asks_healthz_on_the_health_port() -> None:
    bot = _services()["bot"]
    health_port = bot["environment"]["QUIZ_HEALTH_PORT"]
    command = " ".join(bot["healthcheck"]["test"])
    assert f"http://127.0.0.1:{health_port}/healthz" in command


def test_daily_backups_are_behind_a_profile() -> None:
    backup = _services()["backup"]
    assert backup["profiles"] == ["backup"]  # `docker compose up` does not start it
    assert "python -m storage backup" in "".join(backup["command"])
    assert (
        backup["environment"]["QUIZ_DB_PATH"] == _services()["bot"]["environment"]["QUIZ_DB_PATH"]
    )
