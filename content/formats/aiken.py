"""Aiken, Moodle's simplest question format (read only): a question's text, its options
`A.` or `A)` one per line, then `ANSWER: X`; blank lines between questions.

    What is the idle time at the ends of a pipeline called?
    A. A bubble
    B) A stall
    ANSWER: A

Read as Moodle's importer reads it: an option's label needs no space after it (`A)Text`,
Moodle's `/^[A-Z][).][ \\t]?/`), and a line of text after the options starts the next question
(the one before had no ANSWER: line). Stricter than Moodle where it guesses: the text may
take several lines, letters run from A without gaps, and every mistake is named by its line
and the question's first words; with --skip-unsupported the good questions of a file with
broken ones are converted, as Moodle does with "Stop on error" set to No.
Every Aiken question has one right option (a `single` question).
"""

from __future__ import annotations

import re
from typing import Any

from content.formats.base import ConversionError, Draft, ReadOptions, decode_text
from content.schema import MAX_OPTIONS, MAX_QUESTIONS

_OPTION = re.compile(r"^([A-Z])[.)][ \t]?(.*)$")
_ANSWER = re.compile(r"^ANSWER:\s*(.*)$", re.IGNORECASE)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_NAMED = 40  # characters of a question's first line that name it in a problem


def first_words(line: str) -> str:
    """The start of a line, cut at a word within _NAMED characters."""
    if len(line) <= _NAMED:
        return line
    cut = line[: _NAMED - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip() + "…"


class _Reader:
    def __init__(self, draft: Draft) -> None:
        self.draft = draft
        self.problems = draft.problems
        self.text: list[str] = []
        self.choices: list[str] = []
        self.last_letter = ""
        self.start = 0  # the line where the open question starts; 0: none is open

    def place(self, number: int) -> str:
        return f"line {number} {first_words(self.text[0])!r}" if self.text else f"line {number}"

    def open(self, number: int) -> None:
        self.start = number
        self.problems.open_question()

    def close(self) -> None:
        self.text, self.choices, self.last_letter, self.start = [], [], "", 0
        self.problems.close_question()

    def unfinished(self) -> None:
        """The open question ends without its ANSWER: line."""
        self.problems.error(
            self.place(self.start), "a question ends with its ANSWER: line (none found)"
        )
        self.close()

    def read(self, text: str) -> None:
        for number, raw in enumerate(text.split("\n"), 1):
            line = raw.strip()
            if not line:
                if self.choices:
                    self.unfinished()
                continue  # a blank line within a question's text is left out
            answer = _ANSWER.match(line)
            option = _OPTION.match(line)
            if answer:
                if not self.start:
                    self.open(number)
                self.answer(line, answer.group(1).strip(), number)
                self.close()
            elif option and self.text and (self.choices or option.group(1) == "A"):
                self.option(option.group(1), option.group(2).strip(), number)
            elif self.choices:  # Moodle reads it as the next question's first line
                self.problems.error(
                    self.place(number),
                    "after the options comes ANSWER: (an option takes one line)",
                )
                self.close()
                self.open(number)
                self.text.append(line)
            else:
                if not self.start:
                    self.open(number)
                self.text.append(line)
        if self.start:
            self.unfinished()

    def option(self, letter: str, text: str, number: int) -> None:
        # the letter after the last one given (a gap is said once, not at every later option)
        expected = (
            _LETTERS[(_LETTERS.index(self.last_letter) + 1) % 26] if self.last_letter else "A"
        )
        if len(self.choices) == MAX_OPTIONS:
            self.problems.error(self.place(number), f"more than {MAX_OPTIONS} options")
        elif letter != expected:
            self.problems.error(
                self.place(number),
                f"option {letter} where {expected} was expected (A, B, C... in order)",
            )
        elif not text:
            self.problems.error(self.place(number), f"option {letter} is empty")
        self.choices.append(text)
        self.last_letter = letter

    def answer(self, line: str, letter: str, number: int) -> None:
        place = self.place(number)
        index = _LETTERS.find(letter) if len(letter) == 1 else -1
        if not self.text:
            self.problems.error(place, "ANSWER: without a question before it")
        elif not line.startswith("ANSWER:"):
            self.problems.error(place, f"write ANSWER: in capitals (found {line.split(':')[0]!r})")
        elif len(self.choices) < 2:
            self.problems.error(place, "ANSWER: before two options A. and B.")
        elif not 0 <= index < len(self.choices):
            last = _LETTERS[len(self.choices) - 1]
            self.problems.error(place, f"ANSWER: {letter[:20]!r} is not one letter A to {last}")
        if not self.problems.question_ok:
            return
        if len(self.draft.questions) >= MAX_QUESTIONS:
            raise ConversionError(
                [
                    *map(str, self.problems.found),
                    f"line {number}: more than {MAX_QUESTIONS} questions; a bank has at most {MAX_QUESTIONS}",
                ]
            )
        question: dict[str, Any] = {
            "text": "\n".join(self.text),
            "options": list(self.choices),
            "answer": index,
        }
        self.draft.add(question, self.place(self.start))


def read_aiken(data: bytes, options: ReadOptions) -> Draft:
    draft = Draft(bank={})
    _Reader(draft).read(decode_text(data))
    return draft
