"""Draw the pipeline schedules of the Parallelism drill bank (run from anywhere):

    python content/banks/parallelism-drill/images/make_schedule.py

writes `1f1b-schedule.png` and `gpipe-schedule.png` beside this script. The schedules are
simulated, not drawn by hand: each stage runs its passes in its schedule's order as soon as
their inputs are ready (a forward needs the previous stage's forward of that micro-batch, a
backward the next stage's backward). Forward and backward take one time step each, so the
idle share is (p - 1) / (m + p - 1) for both schedules. matplotlib is a dev dependency.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

STAGES = 4
MICRO_BATCHES = 8
HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Step:
    stage: int  # 0-based
    kind: str  # "F" or "B"
    micro_batch: int  # 1-based, as drawn
    start: int  # time step


def one_f_one_b_order(stage: int, stages: int, micro_batches: int) -> list[tuple[str, int]]:
    """1F1B (PipeDream-Flush): warm-up forwards, then one forward and one backward in turn,
    then the remaining backwards."""
    warmup = min(stages - stage - 1, micro_batches)
    order = [("F", i) for i in range(1, warmup + 1)]
    forwards, backwards = warmup + 1, 1
    while forwards <= micro_batches:
        order += [("F", forwards), ("B", backwards)]
        forwards, backwards = forwards + 1, backwards + 1
    order += [("B", i) for i in range(backwards, micro_batches + 1)]
    return order


def gpipe_order(stage: int, stages: int, micro_batches: int) -> list[tuple[str, int]]:
    """GPipe (fill-drain): every forward, then every backward, the last micro-batch first."""
    return [("F", i) for i in range(1, micro_batches + 1)] + [
        ("B", i) for i in range(micro_batches, 0, -1)
    ]


Order = Callable[[int, int, int], list[tuple[str, int]]]  # (stage, stages, micro-batches)


def simulate(
    order_of: Order, stages: int = STAGES, micro_batches: int = MICRO_BATCHES
) -> list[Step]:
    orders = [order_of(s, stages, micro_batches) for s in range(stages)]
    done: dict[tuple[int, str, int], int] = {}  # (stage, kind, micro-batch) -> end time
    free = [0] * stages
    position = [0] * stages
    steps: list[Step] = []
    while any(position[s] < len(orders[s]) for s in range(stages)):
        progressed = False
        for s in range(stages):
            if position[s] == len(orders[s]):
                continue
            kind, i = orders[s][position[s]]
            if kind == "F":
                needs = [(s - 1, "F", i)] if s > 0 else []
            else:
                needs = [(s, "F", i)] + ([(s + 1, "B", i)] if s < stages - 1 else [])
            if any(need not in done for need in needs):
                continue
            start = max([free[s], *(done[need] for need in needs)])
            steps.append(Step(s, kind, i, start))
            done[(s, kind, i)] = free[s] = start + 1
            position[s] += 1
            progressed = True
        if not progressed:
            raise RuntimeError("the schedule deadlocks")
    return steps


def idle_share(steps: list[Step], stages: int = STAGES) -> float:
    end = max(step.start for step in steps) + 1
    return 1 - len(steps) / (stages * end)


def draw(steps: list[Step], title: str, path: Path, stages: int = STAGES) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    end = max(step.start for step in steps) + 1
    figure, axes = pyplot.subplots(figsize=(10, 2.9), dpi=100)
    for stage in range(stages):
        for t in range(end):
            axes.add_patch(
                pyplot.Rectangle((t, stage), 1, 1, facecolor="#e6e6e6", edgecolor="white")
            )
    for step in steps:
        colour = "#4c78a8" if step.kind == "F" else "#f58518"
        axes.add_patch(
            pyplot.Rectangle((step.start, step.stage), 1, 1, facecolor=colour, edgecolor="white")
        )
        axes.text(
            step.start + 0.5,
            step.stage + 0.5,
            f"{step.kind}{step.micro_batch}",
            ha="center",
            va="center",
            color="white",
            fontsize=9,
            fontweight="bold",
        )
    axes.set_xlim(0, end)
    axes.set_ylim(stages, 0)
    axes.set_yticks([s + 0.5 for s in range(stages)], [f"Stage {s + 1}" for s in range(stages)])
    axes.set_xticks([])
    axes.set_xlabel("time →   (F = forward, B = backward, grey = idle)")
    axes.set_title(title, fontsize=11)
    for side in ("top", "right", "bottom", "left"):
        axes.spines[side].set_visible(False)
    figure.tight_layout()
    # no timestamp or version in the file: the same schedule gives the same bytes
    figure.savefig(path, metadata={"Software": None})
    pyplot.close(figure)


def main() -> None:
    schedules = [
        (one_f_one_b_order, "1F1B schedule: 4 stages, 8 micro-batches", "1f1b-schedule.png"),
        (gpipe_order, "GPipe schedule: 4 stages, 8 micro-batches", "gpipe-schedule.png"),
    ]
    for order, title, name in schedules:
        steps = simulate(order)
        draw(steps, title, HERE / name)
        print(f"{name}: idle share {idle_share(steps):.0%}")


if __name__ == "__main__":
    main()
