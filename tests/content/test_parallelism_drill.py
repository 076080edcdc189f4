"""The second bank, "Parallelism drill" (content/banks/parallelism-drill/): it validates
with every question type, its diagrams are what its script simulates, and the answers that
are read off a diagram agree with the simulation."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from types import ModuleType

import pytest

from content.bundle import parse_bundle
from content.export import export_bundle
from content.loader import EVERYTHING, BankResult, load_bank_file
from content.markup import CodeBlock, InlineCode, segments
from content.model import NumericAnswer, QuestionType, Quiz, TrueFalseAnswer

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "content" / "banks" / "parallelism-drill"
BANK = FOLDER / "parallelism-drill.yaml"


@pytest.fixture(scope="module")
def loaded() -> BankResult:
    return load_bank_file(BANK, "en", EVERYTHING)


@pytest.fixture(scope="module")
def drill(loaded: BankResult) -> Quiz:
    assert loaded.errors == ()
    assert loaded.quiz is not None
    return loaded.quiz


@pytest.fixture(scope="module")
def schedule() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_schedule", FOLDER / "images" / "make_schedule.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_schedule"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_validator_accepts_the_folder() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "content", "validate", str(FOLDER)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ok    " in run.stdout and "parallelism-drill, 15 questions" in run.stdout
    assert "warn" not in run.stdout


def test_every_type_with_images_and_code_in_english_and_yoruba(
    drill: Quiz, loaded: BankResult
) -> None:
    assert drill.id == "parallelism-drill"
    assert len(drill) >= 12
    assert {q.type for q in drill.questions} == set(QuestionType)
    assert all(q.text.has("en") and q.text.has("yo") for q in drill.questions)
    with_image = [q for q in drill.questions if q.image is not None]
    assert with_image and all(q.image_alt is not None and q.image_alt.has("yo") for q in with_image)
    assert set(loaded.images) == {"images/1f1b-schedule.png", "images/gpipe-schedule.png"}
    texts = [t for q in drill.questions for t in q.text.translations.values()]
    assert any(
        isinstance(s, CodeBlock) and s.language == "python" for t in texts for s in segments(t)
    )
    options = [t for q in drill.questions for o in q.options for t in o.translations.values()]
    assert any(isinstance(s, InlineCode) for t in options for s in segments(t))


def test_the_diagram_answers_agree_with_the_simulation(drill: Quiz, schedule: ModuleType) -> None:
    one_f_one_b = schedule.simulate(schedule.one_f_one_b_order)
    gpipe = schedule.simulate(schedule.gpipe_order)
    # pd-7: forwards of stage 1 before its first backward
    first = sorted((s for s in one_f_one_b if s.stage == 0), key=lambda s: s.start)
    before = next(i for i, s in enumerate(first) if s.kind == "B")
    question = drill.question("pd-7")
    assert question is not None and question.key == NumericAnswer(Decimal(before))
    # pd-1: in the steady state, each stage alternates one forward and one backward
    kinds = "".join(s.kind for s in first)
    assert kinds == "FFF" + "FB" * 5 + "BBB"
    # pd-4: 1F1B idles as much as GPipe
    assert schedule.idle_share(one_f_one_b) == pytest.approx(schedule.idle_share(gpipe))
    question = drill.question("pd-4")
    assert question is not None and question.key == TrueFalseAnswer(False)
    # pd-5: 4 stages and 12 micro-batches idle 20% of the time
    twelve = schedule.simulate(schedule.one_f_one_b_order, 4, 12)
    question = drill.question("pd-5")
    assert question is not None and isinstance(question.key, NumericAnswer)
    assert schedule.idle_share(twelve) * 100 == pytest.approx(float(question.key.value))


def test_the_bank_travels_as_a_bundle(drill: Quiz, loaded: BankResult) -> None:
    data = export_bundle(drill, loaded.images)
    again = parse_bundle(data, "drill.zip", "en", EVERYTHING)
    assert again.quiz == drill
