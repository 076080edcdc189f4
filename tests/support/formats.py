"""Helpers for the interchange-format tests: read and write through the converter as the CLI
and the bot do, and project a quiz onto what a format carries."""

from __future__ import annotations

import dataclasses
import io
import json
import sqlite3
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import strategies as st

from content.formats.base import ConversionError, ReadOptions, WriteOptions
from content.formats.convert import Loaded, Output, read_quiz, write_quiz
from content.formats.registry import FORMATS
from content.images import BundleImages, FolderImages
from content.loader import EVERYTHING, load_bank_file
from content.model import Level, LocalizedText, NumericAnswer, Question, Quiz, TypedAnswer

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "content" / "formats"
SEED = ROOT / "content" / "banks" / "model-pipeline-parallelism.yaml"
DRILL = ROOT / "content" / "banks" / "parallelism-drill" / "parallelism-drill.yaml"
EVERYTHING_BANK = HERE / "everything.yaml"

OVER_LONG = "x" * 1001  # one character over an explanation's limit
# Two good questions among one of each kind of problem: a bank cannot hold it, the reader
# finds a mistake, the validator finds a length.
MIXED_GIFT = f"""\
::good:: Is this kept? {{TRUE}}

::pairs:: Match them. {{ =cat -> food =dog -> bone }}

::wrong:: Which is right? {{~one ~two}}

::long:: Why? {{=a ~b ####{OVER_LONG}}}

::fine:: Is this fine? {{T}}
"""
MIXED_GIFT_PROBLEMS = (
    "line 3 ::pairs::: a matching question (=item -> match)",
    "line 5 ::wrong::: no right answer: mark it with = (or with a positive weight ~%50%)",
    "line 7 ::long::, field explanation: the default text has 1001 characters; at most 1000",
)


def load(path: Path) -> Loaded:
    result = load_bank_file(path, "en", EVERYTHING)
    assert result.quiz is not None, result.errors
    return Loaded(result.quiz, result.images)


def read(
    data: bytes, fmt: str, name: str = "quiz", folder: Path | None = None, **options: object
) -> Loaded:
    images = FolderImages(folder) if folder is not None else None
    return read_quiz(data, FORMATS[fmt], ReadOptions(name=name, **options), images)  # type: ignore[arg-type]


def refused(
    data: bytes, fmt: str, name: str = "quiz", folder: Path | None = None, **options: object
) -> tuple[str, ...]:
    """The problems of an input the converter must refuse (the test fails if it reads it)."""
    with pytest.raises(ConversionError) as caught:
        read(data, fmt, name, folder, **options)
    return caught.value.problems


def made_of(tokens: list[str], max_size: int) -> st.SearchStrategy[str]:
    """Texts made of a format's own tokens mixed with any characters: inputs that reach deep
    into its reader."""
    return st.lists(st.one_of(st.sampled_from(tokens), st.characters()), max_size=max_size).map(
        "".join
    )


def read_or_refuse(text: str, fmt: str, **options: object) -> None:
    """Any text reads as a quiz or is refused with a ConversionError saying why; nothing else."""
    try:
        read(text.encode("utf-8", "surrogatepass"), fmt, **options)
    except ConversionError as error:
        assert error.problems


def write(loaded: Loaded, fmt: str, language: str = "en") -> Output:
    return write_quiz(loaded.quiz, loaded.images, FORMATS[fmt], WriteOptions(language))


def trip(
    loaded: Loaded, fmt: str, language: str = "en", **options: object
) -> tuple[Loaded, Output]:
    """The quiz written as `fmt` and read back (with the images that travel beside it)."""
    output = write(loaded, fmt, language)
    images = BundleImages(output.images)
    name = f"{loaded.quiz.id}{FORMATS[fmt].extension}"
    read_options = ReadOptions(name=name, language=language, **options)  # type: ignore[arg-type]
    back = read_quiz(output.data, FORMATS[fmt], read_options, images)
    return back, output


def one_language(value: LocalizedText | None, language: str) -> LocalizedText | None:
    if value is None:
        return None
    return LocalizedText({language: value.get(language, language)})


def projected(
    quiz: Quiz,
    language: str | None = None,
    *,
    images: bool = True,
    units: bool = True,
    strict: bool = True,
    bank_fields: bool = True,
    guides: bool = True,
    title: LocalizedText | None = None,
) -> Quiz:
    """The quiz as a format that carries only part of it gives it back."""

    def text(value: LocalizedText | None) -> LocalizedText | None:
        return value if language is None else one_language(value, language)

    def question(q: Question) -> Question:
        key = q.key
        if isinstance(key, NumericAnswer) and not units:
            key = dataclasses.replace(key, unit=None)
        if isinstance(key, NumericAnswer) and language is not None and key.unit is not None:
            key = dataclasses.replace(key, unit=text(key.unit))
        if isinstance(key, TypedAnswer):
            accepted = tuple(text(answer) or answer for answer in key.accepted)
            key = TypedAnswer(accepted, key.strict_diacritics and strict)
        return Question(
            q.id,
            text(q.text) or q.text,
            tuple(text(option) or option for option in q.options),
            key=key,
            explanation=text(q.explanation),
            image=q.image if images else None,
            image_alt=text(q.image_alt) if images else None,
            explanation_image=q.explanation_image if images else None,
            guide=(
                dataclasses.replace(q.guide, title=text(q.guide.title) or q.guide.title)
                if guides and q.guide
                else None
            ),
        )

    return Quiz(
        id=quiz.id,
        title=title or text(quiz.title) or quiz.title,
        level=quiz.level if bank_fields else Level.MEDIUM,
        questions=tuple(question(q) for q in quiz.questions),
        description=text(quiz.description) if bank_fields else None,
        guide=(
            dataclasses.replace(quiz.guide, title=text(quiz.guide.title) or quiz.guide.title)
            if bank_fields and quiz.guide
            else None
        ),
        shuffle_options=quiz.shuffle_options if bank_fields else True,
    )


# --- Anki packages ------------------------------------------------------------------------


def open_package(data: bytes) -> tuple[sqlite3.Connection, dict[str, str], zipfile.ZipFile]:
    """The package's collection (in memory, as Anki reads it), its media map and the zip."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "collection.anki2")
        path.write_bytes(archive.read("collection.anki2"))
        connection = sqlite3.connect(":memory:")
        with sqlite3.connect(path) as source:
            source.backup(connection)
        source.close()
    media = json.loads(archive.read("media"))
    return connection, media, archive


def notes(connection: sqlite3.Connection) -> list[tuple[str, list[str], str]]:
    rows = connection.execute("SELECT guid, flds, tags FROM notes ORDER BY id").fetchall()
    return [(guid, fields.split("\x1f"), tags) for guid, fields, tags in rows]


def deck_names(connection: sqlite3.Connection) -> list[str]:
    decks = json.loads(connection.execute("SELECT decks FROM col").fetchone()[0])
    return [deck["name"] for deck in decks.values() if deck["name"] != "Default"]
