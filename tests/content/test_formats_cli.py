"""`python -m content convert` and `template` (issue 15), run as a teacher runs them: files
in, files out (images beside, or a `.zip`), what was skipped, dropped or wrong said one line
each; and Aiken, which only the converter reads."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from content.__main__ import main
from content.bundle import read_bundle
from content.export import bank_data
from content.loader import EVERYTHING, load_bank_file
from tests.support.formats import DRILL, HERE, SEED, read


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().out.splitlines()


def test_gift_to_yaml_that_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out" / "basics.yaml"
    code, lines = run(capsys, "convert", str(HERE / "constructs.gift"), str(output))
    assert code == 0
    assert lines[-1] == f"ok    {output}: constructs, 16 questions (Quiz Tutor YAML)"
    assert [line[:6] for line in lines[:-1]] == ["warn  ", "warn  "]
    code, lines = run(capsys, "validate", str(output))
    assert (code, lines) == (
        0,
        [f"ok    {output}: constructs, 16 questions (groups skip: numeric, typed)"],
    )


def test_moodle_xml_images_land_beside_the_yaml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "basics.yaml"
    code, lines = run(capsys, "convert", str(HERE / "constructs.xml"), str(output))
    assert code == 0 and lines[-1].endswith(
        "pipeline-basics, 5 questions, 2 images (Quiz Tutor YAML)"
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "basics.yaml",
        "schedule one.png",
        "why.png",
    ]
    result = load_bank_file(output, "en", EVERYTHING)
    assert result.ok


def test_a_bank_with_images_to_a_zip_and_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "drill.zip"
    code, lines = run(capsys, "convert", str(DRILL), str(bundle), "--to", "xlsx")
    assert code == 0, lines
    contents = read_bundle(bundle.read_bytes(), {".xlsx": 5 * 1024 * 1024})
    assert contents.bank_name == "drill.xlsx"
    assert sorted(contents.images) == ["images/1f1b-schedule.png", "images/gpipe-schedule.png"]
    back = tmp_path / "back" / "drill.yaml"
    code, lines = run(capsys, "convert", str(bundle), str(back))
    assert code == 0, lines
    assert bank_data(load_bank_file(back, "en", EVERYTHING).quiz) == bank_data(
        load_bank_file(DRILL, "en", EVERYTHING).quiz
    )  # type: ignore[arg-type]


def test_refused_input_says_every_problem_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out.yaml"
    code, lines = run(capsys, "convert", str(HERE / "unsupported.gift"), str(output))
    assert code == 1
    assert (
        lines[0] == "error unsupported.gift: line 4 ::match::: a matching question (=item -> match)"
    )
    assert len(lines) == 5
    assert not output.exists()


def test_skip_unsupported_lists_what_it_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out.yaml"
    code, lines = run(
        capsys,
        "convert",
        str(HERE / "unsupported.xml"),
        str(output),
        "--skip-unsupported",
        "--id",
        "kept",
        "--title",
        "Kept",
    )
    assert code == 0
    assert [line.split(":")[0] for line in lines[:4]] == ["skip  unsupported.xml"] * 4
    assert lines[-1] == f"ok    {output}: kept, 1 question (Quiz Tutor YAML)"


def test_formats_by_name_and_the_ones_that_go_one_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = run(
        capsys, "convert", str(HERE / "constructs.aiken.txt"), str(tmp_path / "a.yaml")
    )
    assert (code, lines) == (
        1,
        [
            "error constructs.aiken.txt: constructs.aiken.txt: no format for .txt (an Aiken file: --from aiken)"
        ],
    )
    code, lines = run(
        capsys,
        "convert",
        str(HERE / "constructs.aiken.txt"),
        str(tmp_path / "a.yaml"),
        "--from",
        "aiken",
    )
    assert code == 0
    code, lines = run(capsys, "convert", str(tmp_path / "a.yaml"), str(tmp_path / "a.txt"))
    assert code == 1 and "no format for .txt" in lines[0]
    with pytest.raises(SystemExit):
        main(["convert", str(tmp_path / "a.yaml"), str(tmp_path / "x.yaml"), "--from", "apkg"])


def test_a_file_over_the_limit_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.xlsx"
    with big.open("wb") as file:
        file.truncate(50 * 1024 * 1024)  # sparse: 50 MB that were never written
    code, lines = run(capsys, "convert", str(big), str(tmp_path / "out.yaml"))
    assert (code, lines) == (
        1,
        [
            "error big.xlsx: big.xlsx: 52,428,800 bytes; an Excel file may have at most 5,242,880 bytes"
        ],
    )


def test_the_template(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run(capsys, "template", str(tmp_path / "quiz.xlsx"))
    assert code == 0
    code, lines = run(capsys, "convert", str(tmp_path / "quiz.xlsx"), str(tmp_path / "quiz.yaml"))
    assert lines == [f"ok    {tmp_path / 'quiz.yaml'}: my-quiz, 5 questions (Quiz Tutor YAML)"]


def test_the_seed_bank_to_every_output_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for extension in ("gift", "xml", "csv", "xlsx", "apkg", "yaml"):
        output = tmp_path / f"seed.{extension}"
        code, lines = run(capsys, "convert", str(SEED), str(output))
        assert code == 0, lines
        assert output.stat().st_size > 0
    assert zipfile.is_zipfile(io.BytesIO((tmp_path / "seed.apkg").read_bytes()))


def test_the_module_runs_as_a_program(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "content",
            "convert",
            str(HERE / "no_right_answer.gift"),
            str(tmp_path / "x.yaml"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert (
        done.stdout
        == "error no_right_answer.gift: line 4 ::broken::: no right answer: mark it with = (or with a positive weight ~%50%)\n"
        "hint  no_right_answer.gift: --skip-unsupported converts the 1 question that can be taken and lists the rest\n"
    )


# --- Aiken ----------------------------------------------------------------------------------


def test_aiken_questions_in_both_option_styles() -> None:
    loaded = read((HERE / "constructs.aiken.txt").read_bytes(), "aiken", "constructs.aiken.txt")
    questions = bank_data(loaded.quiz)["questions"]
    assert questions[0] == {
        "id": "q1",
        "text": {"en": "What is the idle time at the ends of a pipeline called?"},
        "options": [{"en": "A bubble"}, {"en": "A stall"}, {"en": "A barrier"}],
        "answer": 0,
    }
    assert questions[1]["text"] == {
        "en": "Which collective sums a tensor across GPUs\nand leaves the result on every GPU?"
    }
    assert questions[1]["answer"] == 1


def test_an_id_given_by_hand_that_is_not_a_quiz_id_is_refused_with_a_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out.yaml"
    code, lines = run(
        capsys, "convert", str(HERE / "constructs.gift"), str(output), "--id", "My Quiz"
    )
    assert (code, lines) == (
        1,
        [
            "error constructs.gift: --id 'My Quiz' is not a quiz id: lower-case letters and "
            "digits, words joined by single dashes, at most 40 characters (such as my-quiz)"
        ],
    )
    assert not output.exists()


def test_a_refusal_says_its_errors_and_then_how_to_take_the_good_questions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "mixed.gift"
    source.write_text(
        "::a:: One? {T}\n\n::pairs:: Match. {=a -> b =c -> d}\n\n::essay:: Say. {}\n\n::b:: Two? {F}\n"
    )
    code, lines = run(capsys, "convert", str(source), str(tmp_path / "out.yaml"))
    assert (code, lines) == (
        1,
        [
            "error mixed.gift: line 3 ::pairs::: a matching question (=item -> match)",
            "error mixed.gift: line 5 ::essay::: an essay question (an empty answer section {})",
            "hint  mixed.gift: --skip-unsupported converts the 2 questions that can be taken "
            "and lists the rest",
        ],
    )
