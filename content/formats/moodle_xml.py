"""Moodle XML, read through defusedxml (no DTD, no entities, no external references) and
written back so that Moodle imports it and we read back the same bank.

What maps to what (both ways):
- `category`: its name is the quiz's title, its `<info>` the description (and the guide, as a
  last `<p class="quiz-tutor-guide"><a href=…>` paragraph), its `<idnumber>` the quiz id.
- `multichoice` with `<single>true` is `single` (the answer worth 100%); with
  `<single>false`, the answers with a positive fraction are the right options of a
  `multiple` question. The `fraction`s are the question's `weights` where they say more
  than its plain rule (content/grading.py). `truefalse`, `numerical` (the right number, its
  tolerance, its unit; the other answers, at 0% to below 100% with their feedback, its
  `numbers`), `shortanswer` (the answers worth 100%) are `true_false`, `numeric`, `typed`.
- `<idnumber>` (else `<name>`) is the question's id; `<generalfeedback>` its explanation (else
  the right answer's feedback), and its guide as a last `quiz-tutor-guide` paragraph there; an image in the question text (`@@PLUGINFILE@@` and its
  base64 `<file>`, or an https URL) its image with the `alt` text; one in the general feedback
  its explanation image. Tags `level:<level>` and `strict-diacritics` carry those fields;
  `<shuffleanswers>` carries shuffle_options.
- Texts are HTML (`<text>` in the format its element says) made plain text, line breaks kept;
  Moodle's multilang spans are the languages. Accepted answers and units in several languages
  are one `<answer>`/`<unit>` per language with `xml:lang`.

Refused (or skipped with --skip-unsupported): every other question type (calculated,
cloze, matching, essay, description, drag and drop, ...), partial credit for a short
answer, several right answers to a one-answer question (or numbers to a numeric one), a
number worth a negative fraction or placed before the right one and overlapping it, wildcards
in short answers, an answer that is only a picture, sound and video, a picture without its
<file>. A text's pictures after the first, and pictures beside an answer's text, are named in
a warning. Moodle's grading settings (default mark, penalty, numbering, hidden) are not
content and are not kept; combined feedback, hints, other tags, extra units are dropped with
a warning.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from urllib.parse import quote

import defusedxml
from defusedxml.ElementTree import DefusedXMLParser

from content import model
from content.formats.base import (
    ZERO_SHORT_ANSWER,
    ConversionError,
    Draft,
    NumberAnswer,
    ReadOptions,
    Warnings,
    WriteOptions,
    Written,
    exam_left_out,
    full_credit,
    moodle_language,
    no_quiz_id,
    number_text,
    one_line,
    put_numbers,
    question_id_from,
    quiz_slug,
    read_decimal,
    typed_answer,
    weight_numbers,
    weights_kept,
)
from content.formats.gift import category_name, question_right
from content.formats.html_text import (
    PLUGINFILE,
    Picture,
    file_path,
    html_to_text,
    named,
    split_languages,
    text_to_html,
)
from content.grading import right_choices
from content.images import ImageError, image_location
from content.model import Guide, Image, LocalizedText, Question, Quiz
from content.schema import MAX_QUESTIONS

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
GUIDE_CLASS = "quiz-tutor-guide"
LEVEL_TAG = "level:"
STRICT_TAG = "strict-diacritics"
MAX_DEPTH = 32  # a Moodle export nests 6 deep
MAX_ELEMENTS = 200_000  # 500 questions of ten options take about 30,000
# Text outside the base64 of embedded files: a bank's 512 KiB of YAML, with its HTML and
# multilang spans escaped, takes about three times that.
MAX_TEXT_CHARACTERS = 4 * 1024 * 1024
# Element and attribute names: Moodle writes about a hundred different ones. Expat keeps each
# new name in a table that slows as it grows: 28 MiB of attributes a1="" a2="" … took 7 s.
MAX_NAMES = 500
# A tag (or a comment) longer than this is no Moodle XML; expat reads a whole tag before it
# says anything of it, so this is checked before parsing (in one pass over the bytes).
MAX_MARKUP = 64 * 1024
_LONG_MARKUP = re.compile(rb"<[^<>]{%d}" % MAX_MARKUP)
SUPPORTED = ("multichoice", "truefalse", "numerical", "shortanswer")
UNSUPPORTED_TYPES = {
    "calculated": "calculated",
    "calculatedsimple": "simple calculated",
    "calculatedmulti": "calculated multichoice",
    "multianswer": "cloze (embedded answers)",
    "matching": "matching",
    "randomsamatch": "random short-answer matching",
    "essay": "essay",
    "description": "description (text only)",
    "ddwtos": "drag and drop into text",
    "gapselect": "select missing words",
    "ddimageortext": "drag and drop onto image",
    "ddmarker": "drag and drop markers",
    "ordering": "ordering",
    "random": "random (a placeholder for questions of a category)",
}
_SETTINGS = frozenset(
    [
        "name",
        "questiontext",
        "generalfeedback",
        "defaultgrade",
        "penalty",
        "hidden",
        "idnumber",
        "single",
        "shuffleanswers",
        "answernumbering",
        "showstandardinstruction",
        "answer",
        "tags",
        "units",
        "usecase",
        "unitgradingtype",
        "unitpenalty",
        "showunits",
        "unitsleft",
        "correctfeedback",
        "partiallycorrectfeedback",
        "incorrectfeedback",
        "shownumcorrect",
        "hint",
    ]
)


class _TooBig(Exception):
    pass


class _Builder(ET.TreeBuilder):
    """Builds the tree, counting elements and depth as they come, and noting the line where
    each question starts."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.count = 0
        self.lines: dict[int, int] = {}
        self.expat: Any = None
        self.in_file = 0
        self.text_characters = 0
        self.names: set[str] = set()

    def start(self, tag: str, attrs: dict[str, str]) -> ET.Element:
        self.depth += 1
        self.count += 1
        if self.depth > MAX_DEPTH:
            raise _TooBig(f"elements nested more than {MAX_DEPTH} deep")
        if self.count > MAX_ELEMENTS:
            raise _TooBig(f"more than {MAX_ELEMENTS:,} elements")
        self.names.add(tag)
        self.names.update(attrs)
        if len(self.names) > MAX_NAMES:
            raise _TooBig(f"more than {MAX_NAMES} different element and attribute names")
        self.in_file += tag == "file"
        element = super().start(tag, attrs)
        if tag == "question" and self.expat is not None:
            self.lines[id(element)] = self.expat.CurrentLineNumber
        return element

    def end(self, tag: str) -> ET.Element:
        self.depth -= 1
        self.in_file -= tag == "file"
        return super().end(tag)

    def data(self, data: str) -> None:
        if not self.in_file:
            self.text_characters += len(data)
            if self.text_characters > MAX_TEXT_CHARACTERS:
                raise _TooBig("more than 4 MiB of text besides the embedded files")
        super().data(data)


def _line_of(data: bytes, marker: bytes) -> int:
    return data.count(b"\n", 0, max(data.find(marker), 0)) + 1


def parse_xml(data: bytes) -> tuple[ET.Element, dict[int, int]]:
    """The document's root and the line of each question; ConversionError says why not."""
    upper = data.upper()
    for marker, what in ((b"<!ENTITY", "an entity declaration"), (b"<!DOCTYPE", "a DTD")):
        if marker in upper:
            line = _line_of(upper, marker)
            raise ConversionError(
                [
                    f"line {line}: {what}; Moodle XML has none, and entities are refused (they can expand without bound)"
                ]
            )
    if (long := _LONG_MARKUP.search(data)) is not None:
        line = data.count(b"\n", 0, long.start()) + 1
        raise ConversionError(
            [f"line {line}: a tag or comment longer than {MAX_MARKUP // 1024} KiB; not Moodle XML"]
        )
    builder = _Builder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=True)
    builder.expat = parser.parser
    try:
        parser.feed(data)
        root = parser.close()
    except ET.ParseError as error:
        line, column = error.position
        raise ConversionError(
            [f"line {line}, column {column + 1}: not well-formed XML ({_reason(error)})"]
        ) from None
    except defusedxml.DefusedXmlException as error:
        raise ConversionError([f"refused: {error}"]) from None
    except _TooBig as error:
        raise ConversionError([f"refused: {error}"]) from None
    except (ValueError, LookupError) as error:  # an unknown or impossible encoding declaration
        raise ConversionError([f"not readable XML: {str(error)[:80]}"]) from None
    return root, builder.lines


def _reason(error: ET.ParseError) -> str:
    text = str(error).split(":")[0]
    return (
        "it ends too early: truncated?"
        if "no element found" in text or "unclosed" in text
        else text
    )


# --- reading -------------------------------------------------------------------------------


@dataclass
class _Rich:
    """A text element read: the text by language, and its pictures by language."""

    texts: dict[str, str] = field(default_factory=dict)
    pictures: dict[str, list[Picture]] = field(default_factory=dict)
    media: list[str] = field(default_factory=list)  # sound and video it names
    files: list[str] = field(default_factory=list)  # other files it links to

    def named(self, sources: list[str]) -> str:
        return named(sources)


class _Reader:
    def __init__(self, options: ReadOptions) -> None:
        self.options = options
        self.language = options.language
        self.warnings = Warnings()
        self.draft = Draft(bank={})
        self.problems = self.draft.problems
        self.categories: list[tuple[ET.Element, str]] = []  # with their places
        self.levels: dict[str, str] = {}
        self.shuffles: list[bool] = []
        self.image_bytes: dict[str, bytes] = {}
        self.media: list[str] = []  # sound and video the question being read names
        self.placed: dict[tuple[str, bytes], str] = {}  # (name, digest) → where it is kept
        self.next_number: dict[str, int] = {}  # the next number to try for a name

    # texts

    def _language(self, code: str | None, place: str) -> str | None:
        if code is None:
            return self.language
        found = moodle_language(code)
        if found is None:
            self.problems.error(place, f"{code[:20]!r} is not a language code such as 'en' or 'yo'")
        return found

    def _rich(self, element: ET.Element | None, place: str, kind: str = "html") -> _Rich:
        result = _Rich()
        if element is None:
            return result
        text_format = element.get("format", kind)
        raw = element.findtext("text") or ""
        parts = split_languages(raw) or {None: raw}
        for code, part in parts.items():
            language = self._language(code, place)
            if language is None:
                continue
            pictures: list[Picture]
            if text_format in ("plain_text", "plain"):
                text, pictures = part.replace("`", "\\`").strip(), []
            elif text_format == "markdown":
                text, pictures = part.strip(), []
            else:
                source = part.replace("\n", "<br>") if text_format == "moodle_auto_format" else part
                converted = html_to_text(source)
                text, pictures = converted.text, converted.pictures
                result.media.extend(converted.media)
                result.files.extend(converted.files)
                self.media.extend(converted.media)
            if text:
                result.texts[language] = text
            if pictures:
                result.pictures[language] = pictures
        return result

    def _files(self, element: ET.Element | None, place: str) -> dict[str, bytes]:
        files: dict[str, bytes] = {}
        if element is None:
            return files
        for item in element.findall("file"):
            name = item.get("name", "")
            path = item.get("path", "/")
            if item.get("encoding", "base64") != "base64":
                self.problems.error(place, f"file {name[:40]!r} is not base64")
                continue
            try:
                data = base64.b64decode(item.text or "", validate=False)
            except (binascii.Error, ValueError):
                self.problems.error(place, f"file {name[:40]!r}: damaged base64")
                continue
            files[posixpath.join(path, name).lstrip("/")] = data
        return files

    def _image(
        self,
        element: ET.Element | None,
        rich: _Rich,
        place: str,
        what: str,
    ) -> tuple[str | None, dict[str, str] | None]:
        """(the image's location or URL, its alt text by language) of one text element: its
        first picture (the others named in a warning)."""
        files = self._files(element, place)
        if rich.files:
            self.warnings.add(
                f"links to files are not kept, only their text ({rich.named(rich.files)})", place
            )
        ordered = [picture.source for pictures in rich.pictures.values() for picture in pictures]
        sources = list(dict.fromkeys(ordered))
        if len(sources) > 1:
            self.warnings.add(
                f"pictures after the first in the {what} are not kept ({rich.named(sources[1:])})",
                place,
            )
        if not sources:
            if files:
                self.warnings.add(
                    f"files attached to the {what} but not shown in it are not kept", place
                )
            return None, None
        source = sources[0]
        alts = {
            language: picture.alt
            for language, pictures in rich.pictures.items()
            for picture in pictures[:1]
            if picture.source == source and picture.alt and picture.alt.strip()
        }
        if source.startswith("https://"):
            location = source
        elif source.startswith(PLUGINFILE):
            path = file_path(source)
            data = files.get(path)
            if data is None:
                self.problems.unsupported_part(
                    place, f"a picture without its file ({path[:60]}: no <file> in the {what})"
                )
                return None, None
            try:
                location = self._store(image_location(path), data)
            except ImageError as error:
                self.problems.error(place, f"image {path[:60]!r}: {error}")
                return None, None
            if len(files) > 1:
                self.warnings.add(
                    f"files attached to the {what} but not shown in it are not kept", place
                )
        else:
            self.problems.unsupported_part(
                place, f"an image at {source[:60]!r} (images are files in the XML or https URLs)"
            )
            return None, None
        return location, alts or None

    def _store(self, location: str, data: bytes) -> str:
        """The location under which these bytes are kept: Moodle names files per question, so
        two questions may each have their own `image.png` (the second is `image-2.png`).
        Found by the bytes' digest and a counter per name: a thousand files named alike cost
        a thousand steps, not a million comparisons of their bytes."""
        key = (location, hashlib.sha256(data).digest())
        if (known := self.placed.get(key)) is not None:
            return known
        root, extension = posixpath.splitext(location)
        candidate, number = location, self.next_number.get(location, 2)
        while candidate in self.image_bytes:
            candidate = f"{root}-{number}{extension}"
            number += 1
        self.next_number[location] = number
        self.placed[key] = candidate
        self.image_bytes[candidate] = data
        return candidate

    # the document

    def read(self, data: bytes) -> Draft:
        root, lines = parse_xml(data)
        if root.tag != "quiz":
            raise ConversionError([f"the document is <{root.tag[:30]}>; Moodle XML is a <quiz>"])
        for number, element in enumerate(root, 1):
            line = lines.get(id(element))
            place = f"line {line}" if line else f"element {number}"
            if element.tag != "question":
                self.problems.error(place, f"<{element.tag[:30]}> in <quiz>; it holds <question>s")
                continue
            self._element(element, place)
        self._bank()
        self.draft.images = self.image_bytes
        self.draft.warnings.extend(self.warnings.lines())
        return self.draft

    def _bank(self) -> None:
        bank = self.draft.bank
        if len(self.categories) > 1:
            self.warnings.add(
                f"the questions of {len(self.categories)} categories make one quiz "
                "(the categories are not kept)"
            )
        elif self.categories:
            category, place = self.categories[0]
            title = self._title(category.findtext("category/text") or "", place)
            if title:
                bank["title"] = title
            info = category.find("info")
            if info is not None:
                description, guide = self._info(info, place)
                if description:
                    bank["description"] = description
                if guide:
                    bank["guide"] = guide
            idnumber = (category.findtext("idnumber") or "").strip()
            if idnumber:
                self._quiz_id(idnumber, place)
            for name in ("title", "description", "guide", "id"):
                self.draft.field_origins[name] = f"{place}, category"
        levels = set(self.levels.values())
        if len(levels) > 1:
            self.warnings.add(
                f"questions tagged with different levels ({', '.join(sorted(levels))}): the first is kept"
            )
        if self.levels:
            bank["level"] = next(iter(self.levels.values()))
        if self.shuffles and not all(self.shuffles):
            bank["shuffle_options"] = False
            if any(self.shuffles):
                self.warnings.add("some questions shuffle their answers and some do not: none will")

    def _quiz_id(self, idnumber: str, place: str) -> None:
        """The category's idnumber as the quiz id, slugified as a question's idnumber is."""
        quiz_id = quiz_slug(idnumber)
        if quiz_id is None:
            self.warnings.add(no_quiz_id("the category's idnumber", idnumber), place)
            return
        self.draft.bank["id"] = quiz_id

    def _title(self, path: str, place: str) -> dict[str, str] | None:
        name = category_name(path)
        if not name:
            return None
        parts = split_languages(name) or {None: name}
        found = {}
        for code, part in parts.items():
            language = self._language(code, place)
            text = html.unescape(part).strip()
            if language and text:
                found[language] = text
        return found or None

    def _info(
        self, info: ET.Element, place: str
    ) -> tuple[dict[str, str] | None, dict[str, Any] | None]:
        raw, guide = self._guide(info.findtext("text") or "", place)
        element = ET.Element("info", {"format": info.get("format", "html")})
        ET.SubElement(element, "text").text = raw
        description = self._rich(element, place).texts or None
        return description, guide

    def _guide(self, raw: str, place: str) -> tuple[str, dict[str, Any] | None]:
        """An HTML text without its last `<p class="quiz-tutor-guide">` paragraph, and the
        guide that paragraph links to (a category's, or a question's in its feedback)."""
        marker = raw.lower().rfind(f'<p class="{GUIDE_CLASS}">')
        if marker < 0:
            return raw, None
        tail = raw[marker:]
        link = re.search(r'<a href="([^"<>]*)">', tail)
        end = tail.lower().rfind("</a>")
        if not link or end <= link.end():
            return raw, None
        inner = tail[link.end() : end]
        titles = split_languages(inner) or {None: inner}
        title = {}
        for code, part in titles.items():
            language = self._language(code, place)
            if language:
                title[language] = html_to_text(part).text
        return raw[:marker], {"title": title, "url": html.unescape(link.group(1))}

    def _element(self, element: ET.Element, place: str) -> None:
        kind = element.get("type", "")
        if kind == "category":
            self.categories.append((element, place))
            return
        name = (element.findtext("name/text") or "").strip()
        if name:
            place = f"{place}, question {name[:40]!r}"
        with self.problems.question():
            if kind not in SUPPORTED:
                described = UNSUPPORTED_TYPES.get(kind, f"{kind[:30]!r}" if kind else "untyped")
                self.problems.unsupported_part(place, f"a question of type {described}")
                return
            if len(self.draft.questions) >= MAX_QUESTIONS:
                raise ConversionError(
                    [
                        f"{place}: more than {MAX_QUESTIONS} questions; a bank has at most {MAX_QUESTIONS}"
                    ]
                )
            question = self._question(element, kind, place)
            if question is None or not self.problems.question_ok:
                return
            idnumber = (element.findtext("idnumber") or "").strip()
            question_id = question_id_from(idnumber) if idnumber else None
            question_id = question_id or (question_id_from(name) if name else None)
            if question_id:
                question["id"] = question_id
            self.draft.add(
                {key: value for key, value in question.items() if value is not None}, place
            )

    def _question(self, element: ET.Element, kind: str, place: str) -> dict[str, Any] | None:
        self.media = []
        question = self._question_fields(element, kind, place)
        if question is not None and self.media:
            self.problems.unsupported_part(place, f"sound or video ({named(self.media)})")
            return None
        return question

    def _question_fields(self, element: ET.Element, kind: str, place: str) -> dict[str, Any] | None:
        text_element = element.find("questiontext")
        text = self._rich(text_element, place)
        if not text.texts:
            if text.pictures:
                shown = text.named([p.source for ps in text.pictures.values() for p in ps])
                self.problems.unsupported_part(
                    place, f"a question that is only a picture ({shown}); a question has text"
                )
                return None
            self.problems.error(place, "a question with no text")
            return None
        question: dict[str, Any] = {"text": text.texts}
        image, alt = self._image(text_element, text, place, "question text")
        question["image"], question["image_alt"] = image, alt
        feedback_element = element.find("generalfeedback")
        feedback_text = feedback_element.find("text") if feedback_element is not None else None
        if feedback_text is not None:
            feedback_text.text, question["guide"] = self._guide(feedback_text.text or "", place)
        general = self._rich(feedback_element, place)
        explanation_image, _ = self._image(feedback_element, general, place, "general feedback")
        question["explanation_image"] = explanation_image
        tags = [(tag.findtext("text") or "").strip() for tag in element.findall("tags/tag")]
        strict = STRICT_TAG in tags
        for tag in tags:
            if tag.startswith(LEVEL_TAG):
                self.levels.setdefault(place, tag[len(LEVEL_TAG) :])
            elif tag != STRICT_TAG:
                self.warnings.add("tags are not kept", place)
        for name in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
            if (element.findtext(f"{name}/text") or "").strip():
                self.warnings.add(
                    "combined feedback (for any correct or incorrect response) is not kept", place
                )
                break
        if element.find("hint") is not None:
            self.warnings.add("hints are not kept", place)
        for child in element:
            if child.tag not in _SETTINGS:
                self.warnings.add(f"<{child.tag[:30]}> is not kept", place)
        if kind == "multichoice":
            right_feedback = self._choice(element, question, place)
        elif kind == "truefalse":
            right_feedback = self._true_false(element, question, place)
        elif kind == "numerical":
            right_feedback = self._numeric(element, question, place)
        else:
            right_feedback = self._typed(element, question, place, strict)
        if question.get("answer") is None:
            return None
        if strict and kind != "shortanswer":
            self.warnings.add("the strict-diacritics tag only applies to short answers", place)
        question["explanation"] = general.texts or right_feedback
        if general.texts and right_feedback:
            self.warnings.add(
                "the right answer's feedback is not kept beside the general feedback", place
            )
        return question

    def _answers(self, element: ET.Element, place: str) -> list[tuple[Decimal, ET.Element]]:
        found = []
        for answer in element.findall("answer"):
            fraction = read_decimal(answer.get("fraction", "0"))
            if fraction is None or not -100 <= fraction <= 100:
                self.problems.error(
                    place, f"fraction {answer.get('fraction', '')[:20]!r} is not -100 to 100"
                )
                continue
            found.append((fraction, answer))
        return found

    def _feedback(self, answer: ET.Element, place: str) -> dict[str, str]:
        return self._rich(answer.find("feedback"), place).texts

    def _right_feedback(
        self, answers: list[tuple[Decimal, ET.Element]], right: set[int], place: str
    ) -> dict[str, str] | None:
        # every right answer's feedback, each once, per language: together they say why the
        # answer is right (a multiple question has several)
        kept: dict[str, list[str]] = {}
        for index, (_, answer) in enumerate(answers):
            feedback = self._feedback(answer, place)
            if not feedback:
                continue
            if index in right:
                for language, text in feedback.items():
                    kept.setdefault(language, []).append(text)
            else:
                self.warnings.add(
                    "feedback on wrong answers is not kept (a question has one explanation)", place
                )
        return {
            language: "\n".join(dict.fromkeys(texts)) for language, texts in kept.items()
        } or None

    def _choice(
        self, element: ET.Element, question: dict[str, Any], place: str
    ) -> dict[str, str] | None:
        single = (element.findtext("single") or "true").strip().lower() in ("true", "1")
        shuffle = element.findtext("shuffleanswers")
        if shuffle is not None:
            self.shuffles.append(shuffle.strip().lower() in ("true", "1"))
        answers = self._answers(element, place)
        options = []
        for _, answer in answers:
            rich = self._rich(answer, place)
            pictures = [p.source for ps in rich.pictures.values() for p in ps]
            if pictures and not rich.texts:
                self.problems.unsupported_part(
                    place,
                    f"an answer that is only a picture ({rich.named(pictures)}); an answer is text",
                )
                return None
            if pictures:
                self.warnings.add(
                    f"pictures in answers are not kept ({rich.named(pictures)})", place
                )
            if not rich.texts:
                self.problems.error(place, "an empty answer")
                return None
            options.append(rich.texts)
        question["options"] = options
        fractions = [fraction for fraction, _ in answers]
        right = [index for index, fraction in enumerate(fractions) if fraction > 0]
        if single:
            full = [index for index in right if fractions[index] == 100]
            if len(full) > 1:
                self.problems.unsupported_part(
                    place, "several answers worth 100% in a one-answer question"
                )
                return None
            if not full:
                self.problems.error(place, "no answer worth 100%")
                return None
            question["answer"] = full[0]
            kept = weights_kept(fractions, full, single=True)
        else:
            if not right:
                self.problems.error(place, "no right answer (none has a positive fraction)")
                return None
            question["type"] = "multiple"
            question["answer"] = right
            kept = weights_kept(fractions, right, single=False)
        if kept:
            numbers = weight_numbers(fractions)
            if numbers is None:
                self.problems.error(place, "a fraction with more than 15 significant digits")
                return None
            question["weights"] = numbers
        return self._right_feedback(answers, set(question_right(question)), place)

    def _true_false(
        self, element: ET.Element, question: dict[str, Any], place: str
    ) -> dict[str, str] | None:
        answers = self._answers(element, place)
        truths = {}
        for index, (fraction, answer) in enumerate(answers):
            value = (answer.findtext("text") or "").strip().lower()
            if value not in ("true", "false") or value in truths:
                self.problems.error(place, "a true/false question has the answers true and false")
                return None
            truths[value] = (index, fraction)
        right = [value for value, (_, fraction) in truths.items() if fraction == 100]
        if len(truths) != 2 or len(right) != 1:
            self.problems.error(place, "a true/false question has one answer worth 100%")
            return None
        question["type"] = "true_false"
        question["answer"] = right[0] == "true"
        return self._right_feedback(answers, {truths[right[0]][0]}, place)

    def _numeric(
        self, element: ET.Element, question: dict[str, Any], place: str
    ) -> dict[str, str] | None:
        answers = self._answers(element, place)
        found: list[NumberAnswer] = []
        for fraction, answer in answers:
            text = (answer.findtext("text") or "").strip()
            if text == "*" and fraction == 0:
                if self._feedback(answer, place):
                    self.warnings.add("feedback for any other number is not kept", place)
                continue
            value = read_decimal(text)
            tolerance = read_decimal(answer.findtext("tolerance") or "0")
            if value is None or tolerance is None or tolerance < 0:
                self.problems.error(place, f"{text[:30]!r} with its tolerance is not a number")
                return None
            found.append(
                NumberAnswer(fraction, value, tolerance, self._feedback(answer, place) or None)
            )
        right = put_numbers(question, found, self.problems, place)
        if right is None:
            return None
        question["unit"] = self._unit(element, place)
        return right.feedback if isinstance(right.feedback, dict) else None

    def _unit(self, element: ET.Element, place: str) -> dict[str, str] | None:
        unit: dict[str, str] = {}
        for item in element.findall("units/unit"):
            name = (item.findtext("unit_name") or "").strip()
            multiplier = read_decimal(item.findtext("multiplier") or "1")
            language = self._language(item.get(XML_LANG), place)
            if not name or language is None:
                continue
            if multiplier != 1:
                self.warnings.add(
                    f"unit {name[:20]!r} (×{item.findtext('multiplier')}) is not kept: only the main unit",
                    place,
                )
            elif language in unit:
                self.warnings.add(
                    f"unit {name[:20]!r} (another name of the main unit) is not kept", place
                )
            else:
                unit[language] = name
        return unit or None

    def _typed(
        self, element: ET.Element, question: dict[str, Any], place: str, strict: bool
    ) -> dict[str, str] | None:
        if (element.findtext("usecase") or "0").strip() not in ("0", ""):
            self.warnings.add("case-sensitive short answers are compared ignoring case", place)
        answers = self._answers(element, place)
        groups: list[dict[str, str]] = []
        open_group: dict[str, str] | None = None
        right: set[int] = set()
        for index, (fraction, answer) in enumerate(answers):
            if fraction == 0:
                self.warnings.add(ZERO_SHORT_ANSWER, place)
                continue
            if not full_credit(fraction, "a short answer", self.problems, place):
                return None
            text = typed_answer((answer.findtext("text") or "").strip(), self.problems, place)
            if text is None:
                return None
            right.add(index)
            tagged = answer.get(XML_LANG)
            language = self._language(tagged, place)
            if language is None:
                return None
            if tagged is not None and open_group is not None and language not in open_group:
                open_group[language] = text
                continue
            group = {language: text}
            groups.append(group)
            open_group = group if tagged is not None else None
        if not groups:
            self.problems.error(place, "no answer worth 100%")
            return None
        question["type"] = "typed"
        question["answer"] = groups
        if strict:
            question["strict_diacritics"] = True
        return self._right_feedback(answers, right, place)


def read_moodle_xml(data: bytes, options: ReadOptions) -> Draft:
    return _Reader(options).read(data)


# --- writing -------------------------------------------------------------------------------


class _Writer:
    def __init__(self, quiz: Quiz, images: Mapping[str, bytes], language: str) -> None:
        self.quiz = quiz
        self.images = images
        self.language = language
        self.warnings: list[str] = []

    def _html(
        self,
        value: LocalizedText | None,
        picture: Image | None = None,
        alt: LocalizedText | None = None,
    ) -> str:
        """A text in HTML: one language as it is, several as multilang spans; with the picture
        after the text (in each language, with that language's alt text)."""
        if value is None:
            return ""
        translations = dict(value.translations)
        if alt is not None and not set(alt.languages) <= set(translations):
            missing = ", ".join(sorted(set(alt.languages) - set(translations)))
            self.warnings.append(
                f"image_alt ({missing}) left out: the question has no text in that language"
            )

        def one(language: str, text: str) -> str:
            body = text_to_html(text)
            if picture is not None:
                src = picture.location if picture.is_url else PLUGINFILE + quote(picture.location)
                alt_text = alt.translations.get(language, "") if alt is not None else ""
                body += f'<br><img src="{html.escape(src)}" alt="{html.escape(alt_text)}">'
            return body

        if list(translations) == [self.language]:
            return one(self.language, translations[self.language])
        return "".join(
            f'<span lang="{code}" class="multilang">{one(code, text)}</span>'
            for code, text in translations.items()
        )

    def _plain_multilang(self, value: LocalizedText) -> str:
        if list(value.translations) == [self.language]:
            return html.escape(value.translations[self.language], quote=False)
        return "".join(
            f'<span lang="{code}" class="multilang">{html.escape(text, quote=False)}</span>'
            for code, text in value.translations.items()
        )

    def _text(
        self, parent: ET.Element, tag: str, content: str, picture: Image | None = None
    ) -> ET.Element:
        element = ET.SubElement(parent, tag, {"format": "html"})
        ET.SubElement(element, "text").text = content
        if picture is not None and not picture.is_url:
            folder, name = posixpath.split(picture.location)
            data = self.images.get(picture.location)
            if data is None:
                raise ImageError(f"{picture.location}: no bytes for this image")
            file = ET.SubElement(
                element,
                "file",
                {"name": name, "path": f"/{folder}/" if folder else "/", "encoding": "base64"},
            )
            file.text = base64.b64encode(data).decode()
        return element

    def document(self) -> bytes:
        root = ET.Element("quiz")
        self._category(root)
        for question in self.quiz.questions:
            self._question(root, question)
        if not self.quiz.shuffle_options and not any(q.options for q in self.quiz.questions):
            self.warnings.append(
                "shuffle_options: false is not kept (only choice questions carry it)"
            )
        ET.indent(root)
        return (
            b'<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(root, encoding="utf-8")
            + b"\n"
        )

    def _category(self, root: ET.Element) -> None:
        category = ET.SubElement(root, "question", {"type": "category"})
        title = LocalizedText(
            {
                code: one_line(text, f"the title ({code})", self.warnings)
                for code, text in self.quiz.title.translations.items()
            }
        )
        name = self._plain_multilang(title).replace("/", "//")
        # Moodle splits a path at single slashes: a name cannot start with one
        path = "$course$/top/" + (" " + name if name.startswith("/") else name)
        ET.SubElement(ET.SubElement(category, "category"), "text").text = path
        info = self._html(self.quiz.description) + self._guide_paragraph(self.quiz.guide)
        self._text(category, "info", info)
        ET.SubElement(category, "idnumber").text = self.quiz.id

    def _guide_paragraph(self, guide: Guide | None) -> str:
        if guide is None:
            return ""
        url = html.escape(guide.url)
        return f'<p class="{GUIDE_CLASS}"><a href="{url}">{self._html(guide.title)}</a></p>'

    def _question(self, root: ET.Element, question: Question) -> None:
        kinds = {
            model.SingleAnswer: "multichoice",
            model.MultipleAnswer: "multichoice",
            model.TrueFalseAnswer: "truefalse",
            model.NumericAnswer: "numerical",
            model.TypedAnswer: "shortanswer",
        }
        element = ET.SubElement(root, "question", {"type": kinds[type(question.key)]})
        ET.SubElement(ET.SubElement(element, "name"), "text").text = question.id
        self._text(
            element,
            "questiontext",
            self._html(question.text, question.image, question.image_alt),
            question.image,
        )
        explanation_image = question.explanation_image if question.explanation else None
        self._text(
            element,
            "generalfeedback",
            self._html(question.explanation, explanation_image)
            + self._guide_paragraph(question.guide),
            explanation_image,
        )
        if question.explanation is None and question.explanation_image is not None:
            self.warnings.append(
                f"{question.id}: an explanation image without an explanation is left out"
            )
        ET.SubElement(element, "defaultgrade").text = "1"
        ET.SubElement(element, "penalty").text = "0"
        ET.SubElement(element, "hidden").text = "0"
        ET.SubElement(element, "idnumber").text = question.id
        self._key(element, question)
        tags = ET.SubElement(element, "tags")
        ET.SubElement(ET.SubElement(tags, "tag"), "text").text = LEVEL_TAG + self.quiz.level.value
        if isinstance(question.key, model.TypedAnswer) and question.key.strict_diacritics:
            ET.SubElement(ET.SubElement(tags, "tag"), "text").text = STRICT_TAG

    def _answer(
        self, parent: ET.Element, fraction: str, content: str, language: str | None = None
    ) -> ET.Element:
        attributes = {"fraction": fraction, "format": "html"}
        if language is not None:
            attributes[XML_LANG] = language
        answer = ET.SubElement(parent, "answer", attributes)
        ET.SubElement(answer, "text").text = content
        ET.SubElement(ET.SubElement(answer, "feedback", {"format": "html"}), "text").text = ""
        return answer

    def _key(self, element: ET.Element, question: Question) -> None:
        match question.key:
            case model.SingleAnswer() | model.MultipleAnswer():
                right = right_choices(question)
                single = isinstance(question.key, model.SingleAnswer)
                ET.SubElement(element, "single").text = "true" if single else "false"
                ET.SubElement(element, "shuffleanswers").text = (
                    "true" if self.quiz.shuffle_options else "false"
                )
                ET.SubElement(element, "answernumbering").text = "abc"
                share = _fraction(100 / len(right))
                for index, option in enumerate(question.options):
                    if question.weights is not None:
                        fraction = number_text(question.weights[index])
                    elif single:
                        fraction = "100" if index in right else "0"
                    else:
                        fraction = share if index in right else f"-{share}"
                    self._answer(element, fraction, self._html(option))
            case model.TrueFalseAnswer(value):
                self._answer(element, "100" if value else "0", "true").set(
                    "format", "moodle_auto_format"
                )
                self._answer(element, "0" if value else "100", "false").set(
                    "format", "moodle_auto_format"
                )
            case model.NumericAnswer(value, tolerance, unit, others):
                answer = self._answer(element, "100", number_text(value))
                answer.set("format", "moodle_auto_format")
                ET.SubElement(answer, "tolerance").text = number_text(tolerance)
                for other in others:
                    answer = self._answer(
                        element, number_text(other.weight), number_text(other.value)
                    )
                    answer.set("format", "moodle_auto_format")
                    feedback = answer.find("feedback/text")
                    assert feedback is not None
                    feedback.text = self._html(other.feedback)
                    ET.SubElement(answer, "tolerance").text = number_text(other.tolerance)
                if unit is not None:
                    units = ET.SubElement(element, "units")
                    for code, name in unit.translations.items():
                        attributes = (
                            {} if list(unit.translations) == [self.language] else {XML_LANG: code}
                        )
                        item = ET.SubElement(units, "unit", attributes)
                        ET.SubElement(item, "multiplier").text = "1"
                        ET.SubElement(item, "unit_name").text = name
                    ET.SubElement(element, "unitgradingtype").text = "0"
                    ET.SubElement(element, "unitpenalty").text = "0"
                    ET.SubElement(element, "showunits").text = "0"
                    ET.SubElement(element, "unitsleft").text = "0"
            case model.TypedAnswer(accepted):
                ET.SubElement(element, "usecase").text = "0"
                for text in accepted:
                    alone = list(text.translations) == [self.language]
                    for code, form in text.translations.items():
                        answer = self._answer(
                            element, "100", form.replace("*", "\\*"), None if alone else code
                        )
                        answer.set("format", "moodle_auto_format")


def _fraction(value: float) -> str:
    return f"{value:.5f}".rstrip("0").rstrip(".")


def write_moodle_xml(quiz: Quiz, images: Mapping[str, bytes], options: WriteOptions) -> Written:
    writer = _Writer(quiz, images, options.language)
    data = writer.document()
    warnings = [*writer.warnings, *exam_left_out(quiz, "Moodle XML")]
    return Written(data, warnings=tuple(dict.fromkeys(warnings)))
