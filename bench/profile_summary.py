"""Summarize a py-spy profile in collapsed-stack form (`BENCH_PYSPY=<prefix>`, bench/run.py):
the functions the bot spends its busy samples in, by own time and by time including callees.
A sample whose top frame waits (the event loop in `select`, aiosqlite's thread on its queue)
is idle and left out; the first line says how many there were.

    python -m bench.profile_summary profile.txt [--top 25]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

# top frames that wait rather than work
IDLE = {"EpollSelector.select (selectors.py)", "_connection_worker_thread (core.py)"}


def summarize(lines: list[str]) -> tuple[int, int, Counter[str], Counter[str]]:
    """Busy samples, idle samples, busy samples per function on top of the stack, and per
    function anywhere on it (counted once per stack)."""
    total = idle = 0
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    for line in lines:
        stack, _, count = line.rstrip().rpartition(" ")
        if not stack or not count.isdigit():
            continue
        samples = int(count)
        frames = [_short(frame) for frame in stack.split(";")]
        if frames[-1] in IDLE:
            idle += samples
            continue
        total += samples
        own[frames[-1]] += samples
        for frame in set(frames):
            inclusive[frame] += samples
    return total, idle, own, inclusive


def _short(frame: str) -> str:
    """`name (path/to/module.py:123)` -> `name (module.py)`."""
    name, _, where = frame.partition(" (")
    module = where.rstrip(")").rsplit(":", 1)[0].rsplit("/", 1)[-1]
    return f"{name} ({module})" if module else name


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_summary")
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    total, idle, own, inclusive = summarize(args.profile.read_text().splitlines())
    print(f"{total} busy samples ({idle} idle left out)")
    for title, counter in (("own time", own), ("including callees", inclusive)):
        print(f"-- {title}")
        for name, samples in counter.most_common(args.top):
            print(f"{100 * samples / max(total, 1):5.1f}%  {name}")


if __name__ == "__main__":
    main()
