"""How a parser's time grows with its input: the time for 2n against the time for n.

A linear parser takes about twice as long on twice the input; a quadratic one four times.
The size n is found by doubling from `start` until one run takes `floor` seconds (or 2n
would pass `largest`, by default 256 KiB: half the text formats' limit, below the sizes where
the processor's caches make even a linear pass cost more per byte), so the test is quick on
quadratic code too: it stops doubling as soon as the time is measurable, and the next size
already shows the square.
Each size is then run `repeats` times, the two sizes interleaved, the garbage collector off,
and the best run of each is compared. Times are this process's CPU time: the machine is
shared (two cores, several test runs at once), and the wall clock would count the time a
neighbour held the CPU, which made a linear parser look quadratic one run in seven.
"""

from __future__ import annotations

import contextlib
import gc
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

LINEAR = 2.5  # the most 2n may cost against n: twice, and room for noise


@dataclass(frozen=True)
class Growth:
    size: int
    small: float  # seconds for `size`
    large: float  # seconds for 2 × `size`

    @property
    def ratio(self) -> float:
        return self.large / max(self.small, 1e-9)

    def __str__(self) -> str:
        return (
            f"n={self.size:,}: {self.small * 1000:.1f} ms, "
            f"2n: {self.large * 1000:.1f} ms, ratio {self.ratio:.2f}"
        )


def _once(action: Callable[[T], object], value: T, runs: int = 1) -> float:
    started = time.process_time()
    for _ in range(runs):
        with contextlib.suppress(Exception):  # a refusal is an outcome too; tests check which
            action(value)
    return (time.process_time() - started) / runs


def growth(
    build: Callable[[int], T],
    action: Callable[[T], object],
    *,
    start: int = 1024,
    largest: int = 256 * 1024,
    floor: float = 0.03,
    repeats: int = 5,
    collector: bool = False,
) -> Growth:
    """The best times of `action` on `build(n)` and `build(2n)`. An action too quick to reach
    `floor` at the largest size is run several times per measurement. The garbage collector
    is off unless `collector`: its passes come when they come, so they are noise, except for
    a reader that builds many objects, whose cost they are part of."""
    size = start
    gc.collect()
    was_enabled = gc.isenabled()
    if not collector:
        gc.disable()
    try:
        while (took := _once(action, build(size))) < floor and 4 * size <= largest:
            size *= 2
        runs = min(50, max(1, math.ceil(floor / max(took, 1e-6))))
        small_input, large_input = build(size), build(2 * size)
        small = large = float("inf")
        for _ in range(repeats):
            small = min(small, _once(action, small_input, runs))
            large = min(large, _once(action, large_input, runs))
    finally:
        if was_enabled:
            gc.enable()
    return Growth(size, small, large)


def assert_linear(
    build: Callable[[int], T],
    action: Callable[[T], object],
    tries: int = 3,
    **options: int | float | bool,
) -> Growth:
    """Fails when 2n costs more than LINEAR times n in each of `tries` measurements (a
    neighbour's work can slow one; a quadratic parser fails every one); the message gives
    the figures."""
    found = []
    for _ in range(tries):
        found.append(growth(build, action, **options))  # type: ignore[arg-type]
        if found[-1].ratio <= LINEAR:
            return found[-1]
    raise AssertionError("not linear: " + "; ".join(str(growth) for growth in found))
