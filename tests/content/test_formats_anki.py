"""Anki (issue 15): the seed bank and the drill as .apkg, opened as Anki opens them: the zip,
the SQLite collection inside, one note per question with its fields, stable GUIDs, the deck,
the tags and the media."""

from __future__ import annotations

import json
from pathlib import Path

import genanki
import pytest

from content.formats.anki import media_name
from tests.support.formats import DRILL, EVERYTHING_BANK, SEED, load, notes, open_package, write


@pytest.mark.parametrize("path", [SEED, DRILL], ids=["seed", "drill"])
def test_one_note_per_question_with_stable_guids_and_tags(path: Path) -> None:
    loaded = load(path)
    quiz = loaded.quiz
    connection, _, _ = open_package(write(loaded, "apkg").data)
    found = notes(connection)
    assert len(found) == len(quiz)
    assert [guid for guid, _, _ in found] == [
        genanki.guid_for(quiz.id, q.id) for q in quiz.questions
    ]
    for (_, (front, back), tags), question in zip(found, quiz.questions, strict=True):
        assert tags.split() == [quiz.id, f"level::{quiz.level.value}"]
        first_words = question.text.get("en", "en").split("\n")[0][:20]
        assert first_words.replace('"', "&quot;")[:10] in front or first_words[:10] in front
        if question.explanation is not None:
            assert "explanation" in back
    assert connection.execute("SELECT count(*) FROM cards").fetchone() == (len(quiz),)


def test_the_deck_is_named_after_the_quiz_with_an_id_from_it() -> None:
    loaded = load(SEED)
    connection, _, _ = open_package(write(loaded, "apkg").data)
    decks = json.loads(connection.execute("SELECT decks FROM col").fetchone()[0])
    names = {deck["name"]: deck["id"] for deck in decks.values()}
    assert "Model and Pipeline Parallelism" in names
    again, _, _ = open_package(write(loaded, "apkg").data)
    decks_again = json.loads(again.execute("SELECT decks FROM col").fetchone()[0])
    assert {deck["name"]: deck["id"] for deck in decks_again.values()} == names  # stable


def test_the_fields_hold_question_options_answer_and_explanation() -> None:
    loaded = load(SEED)
    connection, _, _ = open_package(write(loaded, "apkg").data)
    _, (front, back), _ = notes(connection)[0]
    assert front.startswith(
        "<div>What fundamental problem do model and pipeline parallelism solve?</div>"
    )
    assert (
        '<ol type="A" class="options"><li>A model too large to fit in one GPU\'s memory</li>'
        in front
    )
    assert back.startswith("<div><b>A. A model too large to fit in one GPU")
    assert '<div class="explanation">Model and pipeline parallelism exist because' in back
    assert back.endswith(
        '<div class="guide"><a href="https://huggingface.co/docs/transformers/'
        'perf_train_gpu_many#model-parallelism">Model parallelism</a></div>'
    )  # the section of the guide that teaches it


def test_the_drill_carries_its_images_as_media() -> None:
    loaded = load(DRILL)
    connection, media, archive = open_package(write(loaded, "apkg").data)
    expected = {
        media_name(loaded.quiz, image): loaded.images[image.location]
        for q in loaded.quiz.questions
        for image in q.images
    }
    assert len(expected) == 2
    assert sorted(media.values()) == sorted(expected)
    for index, name in media.items():
        assert archive.read(index) == expected[name]
    fields = " ".join(" ".join(fields) for _, fields, _ in notes(connection))
    for name in expected:
        assert f'src="{name}"' in fields


def test_every_type_has_an_answer_on_the_back() -> None:
    loaded = load(EVERYTHING_BANK)
    output = write(loaded, "apkg")
    connection, _, _ = open_package(output.data)
    backs = [fields[1] for _, fields, _ in notes(connection)]
    assert backs[0].startswith("<div><b>B. Pipeline parallelism</b>")
    assert backs[1].startswith(
        "<div><b>A. <code>all_reduce</code><br>B. <code>broadcast</code><br>F. "
    )
    assert backs[2].startswith("<div><b>False</b>")
    assert backs[3].startswith("<div><b>-14.25 GB (± 0.25)</b>")
    assert backs[4].startswith("<div><b>1.5E+20</b>")
    assert backs[5].startswith("<div><b>bubble / C* / a|b / the bubble / òfo</b>")
    assert output.warnings == (
        "An Anki deck holds one language: only the en texts were written (left out: yo; choose another with --language)",
    )


def test_a_deck_in_yoruba() -> None:
    loaded = load(EVERYTHING_BANK)
    connection, _, _ = open_package(write(loaded, "apkg", "yo").data)
    fronts = [fields[0] for _, fields, _ in notes(connection)]
    assert fronts[0].startswith("<div>Èwo ni?</div>")
    backs = [fields[1] for _, fields, _ in notes(connection)]
    assert backs[2].startswith("<div><b>Irọ́</b>")


def test_a_missing_image_file_is_a_conversion_error() -> None:
    from content.formats.base import ConversionError, WriteOptions
    from content.formats.convert import write_quiz
    from content.formats.registry import FORMATS

    loaded = load(DRILL)
    with pytest.raises(ConversionError) as caught:
        write_quiz(loaded.quiz, {}, FORMATS["apkg"], WriteOptions())
    assert caught.value.problems == ("images/1f1b-schedule.png: no bytes for this image",)
