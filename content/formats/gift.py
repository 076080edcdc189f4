"""GIFT, Moodle's text format for questions, read the way Moodle's own importer reads it
(question/format/gift/format.php) but strictly, and written for every type we have.

Reading: questions are separated by blank lines; lines starting with `//` are comments;
`$CATEGORY:` names a category; `::name::` names a question (its id, slugified when it is not
one already); `\\:` `\\=` `\\~` `\\#` `\\{` `\\}` `\\n` and `\\\\` are escapes; the answer section
is `{…}` (text after it makes a missing-word question, shown with `_____`); `####` starts
the general feedback, `#` an answer's feedback; `[html]` `[moodle]` `[plain]` `[markdown]`
say how a text is written (HTML and Moodle's auto-format become plain text; the question's
format is the default of its answers). In HTML, a question's first `<img>` is its picture and
the general feedback's first the explanation's (`@@PLUGINFILE@@/<path>` or a path, relative to
the file, or an https address; the validator checks the file came with it); sound and video
refuse the question by name (docs/formats.md). Weights (`~%50%`, `~%-100%`) are kept as the
question's `weights` where they say more than its plain rule (content/grading.py); a numeric
question's other numbers (`=%0%5#feedback`, `=%50%9:2`) become its `numbers`. What Moodle
would read as matching, essay or description questions, several right answers to a
one-answer question, partial credit for a short answer, or a short answer with a wildcard
cannot be represented here, and is refused (or skipped).

Writing: `::id:: [markdown]text{…}` with `####` for the explanation, one language; weights
and other numbers as above.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

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
    decode_text,
    dropped_languages,
    full_credit,
    number_text,
    one_line,
    put_numbers,
    question_id_from,
    quiz_fields_left_out,
    read_decimal,
    text_in,
    typed_answer,
    weight_numbers,
    weights_kept,
)
from content.formats.html_text import Converted, Picture, file_path, html_to_text
from content.formats.html_text import named as named_list
from content.model import Question, Quiz
from content.schema import MAX_QUESTIONS

# Escaped characters stand for themselves while the structure is read: they are replaced by
# Unicode noncharacters (which no text holds) and restored in each piece of text at the end.
_ESCAPED = {
    ":": "\ufdd0",
    "#": "\ufdd1",
    "=": "\ufdd2",
    "{": "\ufdd3",
    "}": "\ufdd4",
    "~": "\ufdd5",
}
_NEWLINE, _BACKSLASH = "\ufdd6", "\ufdd7"
_RESTORE = str.maketrans(
    {**{mark: char for char, mark in _ESCAPED.items()}, _NEWLINE: "\n", _BACKSLASH: "\\"}
)
# A literal noncharacter of that range (no text should hold one, but any may) is kept as the
# pair _LITERAL + a letter, so that it never reads as an escape.
_LITERAL = "\ufddf"
_NONCHARACTERS = re.compile("[\ufdd0-\ufddf]")
_LITERAL_PAIR = re.compile(_LITERAL + "([A-P])")
_MARKER = re.compile(r"^\[(html|moodle|plain|markdown)\]", re.IGNORECASE)
_WEIGHT = re.compile(r"^%(-?\d{1,3}(?:\.\d*)?)%")
_TRUTHS = {"T": True, "TRUE": True, "F": False, "FALSE": False}
_BLANK = "_____"  # where a missing-word question's answer goes, as Moodle shows it
DEFAULT_FORMAT = "moodle"


def _protect(text: str) -> str:
    """The escapes replaced by placeholders (a lone backslash stays a backslash)."""
    text = _NONCHARACTERS.sub(lambda match: _LITERAL + chr(ord(match.group()) - 0xFDD0 + 65), text)
    out: list[str] = []
    position, length = 0, len(text)
    while position < length:
        found = text.find("\\", position)
        if found < 0:
            out.append(text[position:])
            break
        out.append(text[position:found])
        following = text[found + 1 : found + 2]
        if following == "\\":
            out.append(_BACKSLASH)
            position = found + 2
        elif following in _ESCAPED:
            out.append(_ESCAPED[following])
            position = found + 2
        elif following == "n":
            out.append(_NEWLINE)
            position = found + 2
        else:
            out.append("\\")
            position = found + 1
    return "".join(out)


def _restore(text: str) -> str:
    restored = text.translate(_RESTORE)
    if _LITERAL in restored:
        restored = _LITERAL_PAIR.sub(lambda match: chr(0xFDD0 + ord(match.group(1)) - 65), restored)
    return restored


def _plain(text: str, text_format: str) -> Converted:
    """A piece of GIFT text as our plain text, by its format, with the pictures, sound and
    files its HTML names."""
    if text_format == "html":
        return html_to_text(_restore(text))
    if text_format == "moodle":  # Moodle's auto-format: HTML where a newline is a line break
        return html_to_text(_restore(text).replace("\n", "<br>"))
    if text_format == "plain":  # shown as written: a backtick is a backtick
        return Converted(_restore(text).replace("`", "\\`").strip())
    return Converted(_restore(text).strip())  # markdown: our text is markdown's code and lines


def _formatted(text: str, default: str) -> tuple[Converted, str]:
    """(the piece converted, its format) of a piece that may start with a [format] marker."""
    text = text.strip()
    match = _MARKER.match(text)
    text_format = default
    if match:
        text_format = match.group(1).lower()
        text = text[match.end() :]
    return _plain(text, text_format), text_format


@dataclass
class _Named:
    """What the HTML of one question names besides its text: its pictures (by where they
    are), sound and video, and links to other files."""

    question: list[Picture] = field(default_factory=list)
    explanation: list[Picture] = field(default_factory=list)
    elsewhere: list[str] = field(default_factory=list)  # pictures in answers and feedback
    media: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


class _Reader:
    def __init__(self, options: ReadOptions) -> None:
        self.options = options
        self.warnings = Warnings()
        self.categories: list[str] = []
        self.draft = Draft(bank={})
        self.problems = self.draft.problems
        self.named = _Named()  # what the question being read names besides its text

    def read(self, text: str) -> Draft:
        block: list[str] = []
        first_line = 0
        for number, raw in enumerate(text.split("\n"), 1):
            stripped = raw.strip()
            if not stripped:
                if block:
                    self._block(block, first_line)
                block, first_line = [], 0
                continue
            comment = stripped.startswith("//")
            if not first_line and not comment:
                first_line = number
            block.append(" " if comment else stripped)
        if block:
            self._block(block, first_line)
        if len(set(self.categories)) == 1:
            self.draft.bank["title"] = self.categories[0]
        elif len(set(self.categories)) > 1:
            self.warnings.add(
                f"the questions of {len(set(self.categories))} categories make one quiz "
                "(the categories are not kept)"
            )
        self.draft.warnings.extend(self.warnings.lines())
        return self.draft

    def _block(self, lines: list[str], line: int) -> None:
        text = _protect("\n".join(lines).strip())
        if not text:
            return  # only comments
        place = f"line {line}"
        if text.startswith("$CATEGORY:"):
            first, _, rest = text.partition("\n")
            if rest.strip():
                with self.problems.question():  # the question is lost, not the file
                    self.problems.error(
                        place,
                        "a question right after $CATEGORY: put a blank line between them "
                        "(Moodle would read the question as part of the category)",
                    )
            category = category_name(_restore(first[len("$CATEGORY:") :]))
            if category:
                self.categories.append(category)
                self.draft.field_origins.setdefault("title", f"{place} $CATEGORY")
            return
        if len(self.draft.questions) >= MAX_QUESTIONS:
            raise ConversionError(
                [
                    *map(str, self.problems.found),
                    f"{place}: more than {MAX_QUESTIONS} questions; a bank has at most {MAX_QUESTIONS}",
                ]
            )
        with self.problems.question():
            self._named_question(text, place, line)

    def _named_question(self, text: str, place: str, line: int) -> None:
        name: str | None = None
        if text.startswith("::"):
            end = text.find("::", 2)
            if end < 0:
                self.problems.error(place, "a question name opened with :: is not closed with ::")
                return
            name = _restore(text[2:end]).strip()
            text = text[end + 2 :].strip()
            place = f"line {line} ::{name[:40]}::"
        question = self._question(text, place)
        if question is None or not self.problems.question_ok:
            return
        if name:
            question["id"] = question_id_from(name)
        self.draft.add({key: value for key, value in question.items() if value is not None}, place)

    def _text(self, piece: str, text_format: str, where: str = "elsewhere") -> str:
        """A piece as plain text; what its HTML names is noted for the question."""
        converted = _formatted(piece, text_format)[0]
        self._note(converted, where)
        return converted.text

    def _note(self, converted: Converted, where: str) -> None:
        named = self.named
        if where == "question":
            named.question.extend(converted.pictures)
        elif where == "explanation":
            named.explanation.extend(converted.pictures)
        else:
            named.elsewhere.extend(picture.source for picture in converted.pictures)
        named.media.extend(converted.media)
        named.files.extend(converted.files)

    def _question(self, text: str, place: str) -> dict[str, Any] | None:
        self.named = _Named()
        question = self._question_text(text, place)
        if question is None or not self._pictures(question, place):
            return None
        return question

    def _pictures(self, question: dict[str, Any], place: str) -> bool:
        """The question's first picture and its explanation's first picture kept (the rest
        named in a warning); False, with the reason, when the question cannot be kept: it
        has sound or video, or a picture that is no file nor https:// address."""
        named = self.named
        if named.media:
            self.problems.unsupported_part(place, f"sound or video ({named_list(named.media)})")
            return False
        if not question.get("text") and named.question:
            shown = named_list([picture.source for picture in named.question])
            self.problems.unsupported_part(
                place, f"a question that is only a picture ({shown}); a question has text"
            )
            return False
        for field_name, pictures in (
            ("image", named.question),
            ("explanation_image", named.explanation),
        ):
            sources = list(dict.fromkeys(picture.source for picture in pictures))
            if not sources:
                continue
            path = file_path(sources[0])
            if not path.startswith("https://") and (not path or ":" in path.split("/")[0]):
                self.problems.unsupported_part(
                    place,
                    f"a picture at {sources[0][:60]!r} (a picture is a file that comes with the "
                    "questions, or an https:// address)",
                )
                return False
            question[field_name] = path
            if field_name == "image" and (alt := (pictures[0].alt or "").strip()):
                question["image_alt"] = alt
            if len(sources) > 1:
                named.elsewhere.extend(sources[1:])
        if named.elsewhere:
            shown = named_list(named.elsewhere)
            self.warnings.add(
                f"pictures besides the question's first and the explanation's first are not "
                f"kept ({shown})",
                place,
            )
        if named.files:
            shown = named_list(named.files)
            self.warnings.add(f"links to files are not kept, only their text ({shown})", place)
        return True

    def _question_text(self, text: str, place: str) -> dict[str, Any] | None:
        start, finish = text.find("{"), text.find("}")
        if start < 0 and finish < 0:
            self.problems.unsupported_part(place, "a description (text with no answer section {…})")
            return None
        if start >= 0 and finish < 0:
            self.problems.error(place, "a { without its }; write a literal brace as \\{ or \\}")
            return None
        if start < 0 or finish < start:
            self.problems.error(place, "a } without its {; write a literal brace as \\{ or \\}")
            return None
        if text.find("{", start + 1) >= 0 or text.find("}", finish + 1) >= 0:
            self.problems.error(
                place, "more than one answer section {…}; write a literal brace as \\{ or \\}"
            )
            return None
        answers = text[start + 1 : finish].strip()
        before, after = text[:start], text[finish + 1 :]
        stem = before if not after.strip() else f"{before}{_BLANK}{after}"
        general = None
        if (separator := answers.rfind("####")) >= 0:
            general = answers[separator + 4 :]
            answers = answers[:separator].strip()
        converted, text_format = _formatted(stem, DEFAULT_FORMAT)
        self._note(converted, "question")
        question_text = converted.text
        explanation = self._text(general, text_format, "explanation") if general else ""
        question: dict[str, Any] = {"text": question_text}
        if not answers:
            self.problems.unsupported_part(place, "an essay question (an empty answer section {})")
            return None
        if answers.startswith("#"):
            right_feedback = self._numeric(question, answers[1:], text_format, place)
        elif "~" in answers:
            right_feedback = self._choice(question, answers, text_format, place)
        elif "=" in answers and "->" in answers:
            self.problems.unsupported_part(place, "a matching question (=item -> match)")
            return None
        else:
            truth = answers.split("#", 1)[0].strip()
            if truth in _TRUTHS:
                right_feedback = self._true_false(question, answers, text_format, place)
            else:
                right_feedback = self._typed(question, answers, text_format, place)
        if question.get("answer") is None:
            return None
        question["explanation"] = explanation or right_feedback or None
        if explanation and right_feedback:
            self.warnings.add(
                "the right answer's feedback is not kept beside the general feedback", place
            )
        return question

    def _feedback(self, piece: str, text_format: str, place: str) -> tuple[str | None, str]:
        """(answer, its feedback) of `answer#feedback`, both as plain text; the answer is
        None, with the reason, when it is only a picture."""
        answer, _, feedback = piece.partition("#")
        return self._answer(answer, text_format, place), self._text(feedback, text_format)

    def _answer(self, piece: str, text_format: str, place: str) -> str | None:
        converted = _formatted(piece, text_format)[0]
        self._note(converted, "elsewhere")
        if not converted.text and converted.pictures:
            shown = named_list([picture.source for picture in converted.pictures])
            self.problems.unsupported_part(
                place, f"an answer that is only a picture ({shown}); an answer is text"
            )
            return None
        return converted.text

    def _choice(
        self, question: dict[str, Any], answers: str, text_format: str, place: str
    ) -> str | None:
        pieces = answers.replace("=", "~=").split("~")
        if pieces[0].strip():
            self.problems.error(
                place, f"text before the first answer: {_restore(pieces[0])[:40]!r}"
            )
            return None
        options: list[str] = []
        weights: list[Decimal] = []
        equals: list[int] = []
        feedbacks: list[str] = []
        for piece in pieces[1:]:
            piece = piece.strip()
            weight = Decimal(0)
            if piece.startswith("="):
                weight, piece = Decimal(100), piece[1:]
                equals.append(len(options))
            elif match := _WEIGHT.match(piece):
                weight, piece = Decimal(match.group(1)), piece[match.end() :]
                if abs(weight) > 100:
                    self.problems.error(place, f"a weight of {weight}%: weights are -100% to 100%")
                    return None
            option, feedback = self._feedback(piece, text_format, place)
            if option is None:
                return None
            if not option:
                self.problems.error(place, "an empty answer")
                return None
            options.append(option)
            weights.append(weight)
            feedbacks.append(feedback)
        question["options"] = options
        right = [index for index, weight in enumerate(weights) if weight > 0]
        if equals:
            if len(equals) > 1:
                self.problems.unsupported_part(
                    place,
                    "several answers marked = in a one-answer question (any of them right); "
                    "for a question with several right options write ~%50% weights",
                )
                return None
            if others := [options[i] for i in right if i not in equals and weights[i] == 100]:
                self.problems.unsupported_part(
                    place,
                    f"{others[0][:40]!r} worth 100% beside the = answer of a one-answer question",
                )
                return None
            question["answer"] = equals[0]
            kept = weights_kept(weights, equals, single=True)
        else:
            if not right:
                self.problems.error(
                    place, "no right answer: mark it with = (or with a positive weight ~%50%)"
                )
                return None
            question["type"] = "multiple"
            question["answer"] = right
            kept = weights_kept(weights, right, single=False)
        if kept and not self._put_weights(question, weights, place):
            return None
        return self._right_feedback(feedbacks, set(question_right(question)), place)

    def _put_weights(self, question: dict[str, Any], weights: list[Decimal], place: str) -> bool:
        numbers = weight_numbers(weights)
        if numbers is None:
            self.problems.error(place, "a weight with more than 15 significant digits")
            return False
        question["weights"] = numbers
        return True

    def _right_feedback(self, feedbacks: list[str], right: set[int], place: str) -> str | None:
        wrong = [text for index, text in enumerate(feedbacks) if text and index not in right]
        if wrong:
            self.warnings.add(
                "feedback on wrong answers is not kept (a question has one explanation)", place
            )
        # every right option's feedback, each once: together they say why the answer is right
        kept = [text for index, text in enumerate(feedbacks) if text and index in right]
        return "\n".join(dict.fromkeys(kept)) or None

    def _true_false(
        self, question: dict[str, Any], answers: str, text_format: str, place: str
    ) -> str | None:
        parts = answers.split("#", 2)
        question["type"] = "true_false"
        question["answer"] = _TRUTHS[parts[0].strip()]
        wrong = self._text(parts[1], text_format) if len(parts) > 1 else ""
        right = self._text(parts[2], text_format) if len(parts) > 2 else ""
        if wrong:
            self.warnings.add(
                "feedback on wrong answers is not kept (a question has one explanation)", place
            )
        return right or None

    def _typed(
        self, question: dict[str, Any], answers: str, text_format: str, place: str
    ) -> str | None:
        pieces = answers.split("=")
        if not pieces[0].strip():
            pieces = pieces[1:]
        accepted: list[str] = []
        feedbacks: list[str] = []
        for piece in pieces:
            piece = piece.strip()
            if match := _WEIGHT.match(piece):
                weight = Decimal(match.group(1))
                piece = piece[match.end() :]
                if weight == 0:
                    self.warnings.add(ZERO_SHORT_ANSWER, place)
                    continue
                if not full_credit(weight, "a short answer", self.problems, place):
                    return None
            raw, _, feedback = piece.partition("#")
            answer = self._answer(raw, text_format, place)
            if answer is None:
                return None
            text = typed_answer(answer, self.problems, place)
            if text is None:
                return None
            if text.casefold() in ("true", "false", "t", "f"):
                self.warnings.add(
                    "read as a short answer, as Moodle does (a true/false question is {TRUE} or {FALSE} in capitals)",
                    place,
                )
            accepted.append(text)
            feedbacks.append(self._text(feedback, text_format))
        if not accepted:
            self.problems.error(place, "no right answer")
            return None
        question["type"] = "typed"
        question["answer"] = accepted
        return next((text for text in feedbacks if text), None)

    def _numeric(
        self, question: dict[str, Any], answers: str, text_format: str, place: str
    ) -> str | None:
        if (wrong := answers.find("~")) >= 0:
            self.warnings.add("feedback for any other number is not kept", place)
            answers = answers[:wrong]
        pieces = answers.split("=")
        if not pieces[0].strip():
            pieces = pieces[1:]
        if not pieces:
            self.problems.error(place, "a numeric question with no number")
            return None
        found: list[NumberAnswer] = []
        for piece in pieces:
            piece = piece.strip()
            weight = Decimal(100)
            if match := _WEIGHT.match(piece):
                weight = Decimal(match.group(1))
                piece = piece[match.end() :]
                if abs(weight) > 100:
                    self.problems.error(place, f"a weight of {weight}%: weights are -100% to 100%")
                    return None
            raw, _, feedback = piece.partition("#")
            number = self._range(_restore(raw).strip(), place)
            if number is None:
                return None
            text = self._text(feedback, text_format)
            found.append(NumberAnswer(weight, *number, text or None))
        right = put_numbers(question, found, self.problems, place)
        if right is None:
            return None
        return right.feedback if isinstance(right.feedback, str) else None

    def _range(self, text: str, place: str) -> tuple[Decimal, Decimal] | None:
        if ".." in text:
            low_text, _, high_text = text.partition("..")
            low, high = read_decimal(low_text), read_decimal(high_text)
            if low is None or high is None or low > high:
                self.problems.error(place, f"{text[:40]!r} is not a range such as 3..5")
                return None
            return (low + high) / 2, (high - low) / 2
        value_text, colon, tolerance_text = text.partition(":")
        value = read_decimal(value_text)
        tolerance = read_decimal(tolerance_text) if colon else Decimal(0)
        if value is None or tolerance is None or tolerance < 0:
            self.problems.error(place, f"{text[:40]!r} is not a number such as 14, 14:0.5 or 3..5")
            return None
        return value, tolerance


def question_right(question: dict[str, Any]) -> list[int]:
    answer = question.get("answer")
    return answer if isinstance(answer, list) else [answer] if isinstance(answer, int) else []


def category_name(path: str) -> str:
    """The last part of a Moodle category path (`$course$/top/Week 1` is `Week 1`), after
    the context (`$course$`, `$system$`…) and `top`; `//` is a slash inside a name."""
    parts = [part.replace("//", "/").strip() for part in re.split(r"(?<!/)/(?!/)", path.strip())]
    if parts and re.fullmatch(r"\$[a-z]+\$", parts[0]):
        parts = parts[1:]
        if parts and parts[0] == "top":
            parts = parts[1:]
    return parts[-1] if parts else ""


def read_gift(data: bytes, options: ReadOptions) -> Draft:
    return _Reader(options).read(decode_text(data))


# --- writing -------------------------------------------------------------------------------


def escape(text: str) -> str:
    text = text.replace("\\", "\\\\")
    for char in "~=#{}:":
        text = text.replace(char, "\\" + char)
    return text.replace("\r", "").replace("\n", "\\n")


def _piece(text: str) -> str:
    """A text as GIFT writes it; a leading `[` would read as a format marker."""
    return ("[markdown]" if text.startswith("[") else "") + escape(text)


def _wrong(text: str, weight: Decimal) -> str:
    """How an option other than the right one of a single question starts: `~`, or with its
    weight (`~%0%` too when the text itself starts with `%`)."""
    if weight or text.startswith("%"):
        return f"~%{number_text(weight)}%"
    return "~"


def _number_range(value: Decimal, tolerance: Decimal) -> str:
    return number_text(value) + (f":{number_text(tolerance)}" if tolerance else "")


def _choice_weight(count: int) -> str:
    return f"{100 / count:.5f}".rstrip("0").rstrip(".")


def _answers(question: Question, language: str, dropped: list[str]) -> list[str]:
    options = [text_in(option, language) or "" for option in question.options]
    match question.key:
        case model.SingleAnswer(right, weights):
            return [
                ("=" if index == right else _wrong(text, weights[index] if weights else Decimal(0)))
                + _piece(text)
                for index, text in enumerate(options)
            ]
        case model.MultipleAnswer(right, None):
            weight = _choice_weight(len(right))
            return [
                (f"~%{weight}%" if index in right else f"~%-{weight}%") + _piece(text)
                for index, text in enumerate(options)
            ]
        case model.MultipleAnswer(_, weights) if weights is not None:
            return [
                f"~%{number_text(weight)}%" + _piece(text)
                for weight, text in zip(weights, options, strict=True)
            ]
        case model.TrueFalseAnswer(value):
            return ["TRUE" if value else "FALSE"]
        case model.NumericAnswer(value, tolerance, _, others):
            if not others:
                return [f"#{_number_range(value, tolerance)}"]
            written = [f"#={_number_range(value, tolerance)}"]
            for other in others:
                feedback = text_in(other.feedback, language)
                written.append(
                    f"=%{number_text(other.weight)}%{_number_range(other.value, other.tolerance)}"
                    + (f"#{_piece(feedback)}" if feedback else "")
                )
            return written
        case model.TypedAnswer(accepted):
            written = []
            for answer in accepted:
                text = answer.get(language, language).replace("*", "\\*")
                if "->" in text:  # GIFT reads = with -> as a matching question, whatever escapes
                    dropped.append(
                        f"{question.id}: the accepted answer {text!r} (GIFT reads -> as matching)"
                    )
                    continue
                written.append(("=%100%" if text.startswith("%") else "=") + _piece(text))
            return written
    raise TypeError(f"no GIFT answers for {question.type}")  # pragma: no cover


def _dropped(quiz: Quiz) -> list[str]:
    found = quiz_fields_left_out(quiz)
    counts = {
        "images": sum(len(question.images) for question in quiz.questions),
        "units": sum(
            1
            for question in quiz.questions
            if isinstance(question.key, model.NumericAnswer) and question.key.unit is not None
        ),
        "strict_diacritics": sum(
            1
            for question in quiz.questions
            if isinstance(question.key, model.TypedAnswer) and question.key.strict_diacritics
        ),
        "question guides": sum(1 for question in quiz.questions if question.guide is not None),
    }
    singular = {
        "images": "image", "units": "unit", "strict_diacritics": "strict_diacritics",
        "question guides": "question guide",
    }  # fmt: skip
    found.extend(
        f"{count} {name if count > 1 else singular[name]}"
        for name, count in counts.items()
        if count
    )
    return found


def category_line(title: str) -> str:
    """`$CATEGORY:` with the title as the last part of the path (`category_name` reads it
    back): a slash doubled, and a space before a leading one, which would join the
    separator before it."""
    name = title.replace("/", "//")
    return f"$CATEGORY: $course$/top/{' ' + name if name.startswith('/') else name}"


def write_gift(quiz: Quiz, options: WriteOptions) -> Written:
    language = options.language
    header_warnings: list[str] = []
    title = one_line(quiz.title.get(language, language), "the title", header_warnings)
    out = [
        f"// {escape(title)}: exported by Quiz Tutor, one question per block",
        category_line(title),
        "",
    ]
    left_out: list[str] = []
    for question in quiz.questions:
        answers = _answers(question, language, left_out)
        if not answers:
            left_out.append(f"{question.id}: the whole question (no answer GIFT can hold)")
            continue
        text = text_in(question.text, language) or ""
        out.append(f"::{escape(question.id)}:: [markdown]{escape(text)} {{")
        out.extend(f"\t{answer}" for answer in answers)
        explanation = text_in(question.explanation, language)
        if explanation:
            out.append(f"\t####{_piece(explanation)}")
        out.extend(["}", ""])
    warnings = [
        "GIFT has no quiz id: it comes back from the file name or from --id",
        *header_warnings,
        *dropped_languages(quiz, language, "GIFT"),
    ]
    if dropped := _dropped(quiz):
        warnings.append(f"GIFT cannot hold {', '.join(dropped)}: left out")
    warnings.extend(f"left out {what}" for what in left_out)
    return Written("\n".join(out).encode(), warnings=tuple(warnings))
