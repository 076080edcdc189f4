"""`python -m bot sandbox` as a newcomer runs it: no token, no network, a page on 127.0.0.1,
`data/sandbox.sqlite3`, a clean stop; and what it refuses."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
from pathlib import Path

from tests.support.sandbox import sandbox_process


def _get(port: int, path: str, host: str | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host or f"127.0.0.1:{port}"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_sandbox_serves_the_page_keeps_its_database_and_stops_cleanly(tmp_path: Path) -> None:
    with sandbox_process(tmp_path, own_database=False) as sandbox:
        status, page = _get(sandbox.port, "/")
        assert status == 200 and b"Quiz Tutor" in page
        status, body = _get(sandbox.port, "/api/state")
        assert [p["name"] for p in json.loads(body)["people"]] == ["Adé", "Emma", "Chidi", "Funmi"]
        assert _get(sandbox.port, "/", host=f"rebound.example:{sandbox.port}")[0] == 421
        assert (tmp_path / "data" / "sandbox.sqlite3").is_file()

        sandbox.process.send_signal(signal.SIGTERM)
        assert sandbox.process.wait(30) == 0
    log = "".join(sandbox.log)
    assert "sandbox stopping" in log and "Quiz Tutor stopped" in log
    assert "Traceback" not in log and "SANDBOX-NOT-A-REAL-TOKEN" not in log


def test_a_port_in_use_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    with sandbox_process(tmp_path) as first:
        second = subprocess.run(
            [sys.executable, "-m", "bot", "sandbox", "--port", str(first.port), "--no-browser"],
            cwd=tmp_path, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert second.returncode == 2
    assert f"cannot serve the page on 127.0.0.1:{first.port}" in second.stderr + second.stdout
    assert "Traceback" not in second.stderr


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    for arguments, words in [
        (["sandbox", "--content", str(tmp_path / "nowhere")], "is not a folder"),
        (["sandbox", "--port", "0x50"], "is not a port number"),
        (["sandbox", "--port", "70000"], "is not a port number"),
        (["sandbocks"], "invalid choice"),
    ]:
        done = subprocess.run(
            [sys.executable, "-m", "bot", *arguments],
            cwd=tmp_path, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 2, (arguments, done.stderr)
        assert words in done.stderr, done.stderr


def test_the_console_script_has_the_sandbox_too(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "quiz-tutor"
    done = subprocess.run(
        [str(script), "sandbox", "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "--content DIR" in done.stdout and "--no-browser" in done.stdout
