"""Anki (.apkg, written with genanki): a deck per quiz, a note per question.

The front holds the question (its picture, its options A, B, C…); the back the answer (for a
question with weights, every option with its weight, `A. Grant (50%)`) and the explanation
(and its picture). Note GUIDs come from the quiz and question ids, so that
importing a new export of the same quiz updates its cards instead of adding new ones; the
deck's id comes from the quiz id the same way. Images travel as the package's media, named
after the quiz (Anki keeps every deck's media in one folder). Tags: the quiz id and
`level::<level>`. One language, as the learner reads it (`--language`, falling back field by
field like the bot).
"""

from __future__ import annotations

import hashlib
import html
import tempfile
from collections.abc import Mapping
from pathlib import Path

import genanki

from content import model
from content.formats.base import (
    WriteOptions,
    Written,
    dropped_languages,
    exam_left_out,
    number_text,
    one_line,
)
from content.formats.html_text import text_to_html
from content.formats.table import LETTERS
from content.images import ImageError
from content.model import Image, LocalizedText, Question, Quiz

_TRUTHS = {"en": ("True", "False"), "yo": ("Òótọ́", "Irọ́")}  # yo: review
_CSS = """.card { font-family: sans-serif; font-size: 20px; text-align: left; }
.options { margin-top: 0.6em; } .explanation { margin-top: 0.8em; color: #333; }
pre { background: #f4f4f4; padding: 0.4em; } img { max-width: 100%; }"""


def _stable_id(*parts: str) -> int:
    """An id in Anki's range from names: the same names always give the same id."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:4], "big") % (1 << 30)


MODEL = genanki.Model(
    _stable_id("quiz-tutor", "question", "v1"),
    "Quiz Tutor question",
    fields=[{"name": "Front"}, {"name": "Back"}],
    templates=[
        {
            "name": "Card 1",
            "qfmt": "{{Front}}",
            "afmt": '{{FrontSide}}<hr id="answer">{{Back}}',
        }
    ],
    css=_CSS,
)


def media_name(quiz: Quiz, image: Image) -> str:
    """The image's name among Anki's media: flat, and prefixed by the quiz."""
    return f"{quiz.id}__{image.location.replace('/', '__')}"


class _Note:
    def __init__(self, quiz: Quiz, language: str) -> None:
        self.quiz = quiz
        self.language = language

    def text(self, value: LocalizedText | None) -> str:
        return value.get(self.language, self.language) if value is not None else ""

    def picture(self, image: Image | None, alt: LocalizedText | None = None) -> str:
        if image is None:
            return ""
        source = image.location if image.is_url else media_name(self.quiz, image)
        return f'<div><img src="{html.escape(source)}" alt="{html.escape(self.text(alt))}"></div>'

    def front(self, question: Question) -> str:
        parts = [
            f"<div>{text_to_html(self.text(question.text))}</div>",
            self.picture(question.image, question.image_alt),
        ]
        if question.options:
            items = "".join(
                f"<li>{text_to_html(self.text(option))}</li>" for option in question.options
            )
            parts.append(f'<ol type="A" class="options">{items}</ol>')
        return "".join(parts)

    def answer(self, question: Question) -> str:
        def option(index: int) -> str:
            return f"{LETTERS[index]}. {text_to_html(self.text(question.options[index]))}"

        if question.weights is not None:  # every option with its share of the marks
            return "<br>".join(
                f"{option(index)} ({number_text(weight)}%)"
                for index, weight in enumerate(question.weights)
            )
        match question.key:
            case model.SingleAnswer(index):
                return option(index)
            case model.MultipleAnswer(indexes):
                return "<br>".join(option(index) for index in sorted(indexes))
            case model.TrueFalseAnswer(value):
                words = _TRUTHS.get(self.language, _TRUTHS["en"])
                return words[0] if value else words[1]
            case model.NumericAnswer(value, tolerance, unit):
                shown = number_text(value)
                if unit is not None:
                    shown += f" {html.escape(self.text(unit))}"
                if tolerance:
                    shown += f" (± {number_text(tolerance)})"
                return shown
            case model.TypedAnswer(accepted):
                return " / ".join(html.escape(self.text(text)) for text in accepted)
        raise TypeError(f"no answer for {question.type}")  # pragma: no cover

    def back(self, question: Question) -> str:
        parts = [f"<div><b>{self.answer(question)}</b></div>"]
        if question.explanation is not None:
            parts.append(
                f'<div class="explanation">{text_to_html(self.text(question.explanation))}</div>'
            )
        parts.append(self.picture(question.explanation_image))
        if (guide := question.guide) is not None:
            parts.append(
                f'<div class="guide"><a href="{html.escape(guide.url)}">'
                f"{html.escape(self.text(guide.title))}</a></div>"
            )
        return "".join(parts)


def write_apkg(quiz: Quiz, images: Mapping[str, bytes], options: WriteOptions) -> Written:
    language = options.language
    notes = _Note(quiz, language)
    warnings: list[str] = []
    deck = genanki.Deck(
        _stable_id("quiz-tutor", "deck", quiz.id), deck_name(notes.text(quiz.title), warnings)
    )
    tags = [quiz.id, f"level::{quiz.level.value}"]
    media: dict[str, bytes] = {}
    for question in quiz.questions:
        for image in question.images:
            if not image.is_url:
                data = images.get(image.location)
                if data is None:
                    raise ImageError(f"{image.location}: no bytes for this image")
                media[media_name(quiz, image)] = data
        deck.add_note(
            genanki.Note(
                model=MODEL,
                fields=[notes.front(question), notes.back(question)],
                guid=genanki.guid_for(quiz.id, question.id),
                tags=tags,
            )
        )
    with tempfile.TemporaryDirectory(prefix="quiz-tutor-apkg-") as folder:
        paths = []
        for name, data in sorted(media.items()):
            path = Path(folder, name)
            path.write_bytes(data)
            paths.append(str(path))
        target = Path(folder, "deck.apkg")
        genanki.Package(deck, media_files=paths).write_to_file(str(target))
        data = target.read_bytes()
    warnings.extend(dropped_languages(quiz, language, "An Anki deck"))
    warnings.extend(exam_left_out(quiz, "An Anki deck"))
    return Written(data, warnings=tuple(warnings))


def deck_name(title: str, warnings: list[str]) -> str:
    """The title as a deck's name: one line, and `::` (which Anki reads as a deck inside
    another) written `:`."""
    name = one_line(title, "the title", warnings)
    while "::" in name:
        name = name.replace("::", ":")
    return name
