"""Aiken, Moodle's simplest question format (read only): a question's text, its options
`A.` or `A)` one per line, then `ANSWER: X`; blank lines between questions.

    What is the idle time at the ends of a pipeline called?
    A. A bubble
    B) A stall
    ANSWER: A

The text may take several lines; an option is one line; letters run from A without gaps.
Every Aiken question has one right option (a `single` question).
"""

from __future__ import annotations

import re
from typing import Any

from content.formats.base import ConversionError, Draft, Problems, ReadOptions, decode_text
from content.schema import MAX_OPTIONS, MAX_QUESTIONS

_OPTION = re.compile(r"^([A-Z])[.)]\s+(\S.*)$")
_ANSWER = re.compile(r"^ANSWER:\s*(.*)$", re.IGNORECASE)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def read_aiken(data: bytes, options: ReadOptions) -> Draft:
    problems = Problems(options.skip_unsupported)
    draft = Draft(bank={})
    text: list[str] = []
    choices: list[str] = []
    start = 0

    def reset() -> None:
        nonlocal start
        text.clear()
        choices.clear()
        start = 0

    for number, raw in enumerate(decode_text(data).split("\n"), 1):
        line = raw.strip()
        if not line:
            if choices and text:
                problems.error(
                    f"line {start}", "a question ends with its ANSWER: line (none found)"
                )
                reset()
            continue
        if not start:
            start = number
        place = f"line {number}"
        answer = _ANSWER.match(line)
        option = _OPTION.match(line)
        if answer and line.startswith("ANSWER:"):
            if len(choices) < 2:
                problems.error(place, "ANSWER: before two options A. and B.")
            else:
                letter = answer.group(1).strip()
                index = _LETTERS.find(letter) if len(letter) == 1 else -1
                if not 0 <= index < len(choices):
                    last = _LETTERS[len(choices) - 1]
                    problems.error(place, f"ANSWER: {letter[:20]!r} is not one letter A to {last}")
                elif len(draft.questions) >= MAX_QUESTIONS:
                    raise ConversionError(
                        [
                            f"{place}: more than {MAX_QUESTIONS} questions; a bank has at most {MAX_QUESTIONS}"
                        ]
                    )
                else:
                    question: dict[str, Any] = {
                        "text": "\n".join(text),
                        "options": list(choices),
                        "answer": index,
                    }
                    draft.add(question, f"line {start}")
            reset()
        elif answer:
            problems.error(place, f"write ANSWER: in capitals (found {line.split(':')[0]!r})")
            reset()
        elif option and (choices or option.group(1) == "A") and text:
            if len(choices) >= MAX_OPTIONS:
                problems.error(place, f"more than {MAX_OPTIONS} options")
            elif option.group(1) != _LETTERS[len(choices)]:
                expected = _LETTERS[len(choices)]
                problems.error(
                    place,
                    f"option {option.group(1)} where {expected} was expected (A, B, C... in order)",
                )
            choices.append(option.group(2).strip())
        elif choices:
            problems.error(place, "an option takes one line; after the options comes ANSWER:")
        else:
            text.append(line)
    if text:
        problems.error(f"line {start}", "a question ends with its ANSWER: line (none found)")
    problems.raise_if_refused()
    return draft
