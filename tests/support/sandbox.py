"""`python -m bot sandbox` as a process of its own, for the browser."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.config import DEFAULT_CONTENT_DIR
from bot.sandbox import free_port
from content.grading import right_choices
from content.loader import load_bank_file

QUIZ_ID = "model-pipeline-parallelism"
# a bank whose every text is markup that would run, were it inserted as HTML
HOSTILE_BANK = """id: hostile
title: '<script>window.pwned = 1</script>"><img src=x onerror="window.pwned = 2">'
level: easy
questions:
  - id: q1
    text: '<script>window.pwned = 1</script>"><img src=x onerror="window.pwned = 2">'
    options: ['<img src=x onerror=window.pwned=3>', '<b onmouseover=window.pwned=4>b</b>']
    answer: 0
    explanation: '<a href="javascript:window.pwned=5">x</a>'
"""


class SandboxProcess:
    def __init__(self, process: subprocess.Popen[str], port: int) -> None:
        self.process = process
        self.port = port
        self.url = f"http://127.0.0.1:{port}/"
        self.log: list[str] = []
        self._ready = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.log.append(line)
            if "sandbox ready" in line:
                self._ready.set()
        self._ready.set()  # it ended: whoever waits must look

    def wait_ready(self, timeout: float = 60.0) -> None:
        if not self._ready.wait(timeout) or self.process.poll() is not None:
            raise AssertionError("the sandbox did not start:\n" + "".join(self.log))


@contextmanager
def sandbox_process(
    folder: Path, *arguments: str, own_database: bool = True, port: int | None = None
) -> Iterator[SandboxProcess]:
    """The sandbox run in `folder`, its page on a free port, no browser opened; its database
    `folder/sandbox.sqlite3` (`own_database=False`: the default, `data/sandbox.sqlite3`)."""
    port = port or free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "QUIZ_"))}
    env.update(NO_PROXY="127.0.0.1,localhost", PYTHONUNBUFFERED="1")
    if own_database:
        env["QUIZ_DB_PATH"] = str(folder / "sandbox.sqlite3")
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "sandbox", "--port", str(port), "--no-browser", *arguments],
        env=env, cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    running = SandboxProcess(process, port)
    try:
        running.wait_ready()
        yield running
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def right_answers() -> dict[str, str]:
    """The English question text -> the text of its right option, from the seed bank."""
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / f"{QUIZ_ID}.yaml", "en").quiz
    assert quiz is not None
    return {
        q.text.translations["en"]: q.options[min(right_choices(q))].translations["en"]
        for q in quiz.questions
    }


def label_is(label: str, option: str) -> bool:
    """A button reads "B. <option>", shortened with "…" when long."""
    shown = label.split(". ", 1)[-1].removesuffix("…")
    return option.startswith(shown)
