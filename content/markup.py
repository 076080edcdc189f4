"""Code in a bank's text: fenced blocks and inline `code`, parsed into segments.

The rules (a question's text, an option or an explanation):
- A code block opens with a line that is ``` and an optional language (```python), alone on
  its line, and closes at the next line that is just ```. Inside a block every character is
  literal, backslashes and backticks included.
- Inline code is text between two single backticks on one line: `print(x)`.
- Outside blocks, \\` is a literal backtick (also inside inline code: `a\\`b` is the code a`b).
  Any other backslash is literal.
- Whatever does not make code stays literal text: a lone backtick, two or more backticks in a
  row outside a block opener, a block that is never closed. Parsing never fails; `problems`
  says where the text probably meant something else, so that authors can be warned.

The newline before a block's opening line and the one after its closing line belong to the
text around it; renderers decide how blocks sit between lines. Segments know nothing of HTML.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

LANGUAGE = re.compile(r"[A-Za-z0-9_+#.-]{1,30}")
_OPENER = re.compile(r"```([A-Za-z0-9_+#.-]{0,30})[ \t]*(?:\n|\Z)")
_SPECIAL = re.compile(r"[`\\]")  # where plain text may stop
_CLOSER = re.compile(r"^```[ \t]*(?=\n|\Z)", re.MULTILINE)


@dataclass(frozen=True)
class Plain:
    text: str


@dataclass(frozen=True)
class InlineCode:
    code: str


@dataclass(frozen=True)
class CodeBlock:
    code: str
    language: str | None = None


Segment = Plain | InlineCode | CodeBlock


@dataclass(frozen=True)
class Parsed:
    segments: tuple[Segment, ...]
    problems: tuple[str, ...]  # places where a backtick stayed literal, probably unmeant


def _backticks(text: str, start: int) -> int:
    end = start
    while end < len(text) and text[end] == "`":
        end += 1
    return end - start


class _Lines:
    """The line of an index, counted from the last index asked (indexes only grow): the
    newlines of the text are counted once in all, not once per problem."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.several = "\n" in text
        self.index = 0
        self.line = 1

    def __call__(self, index: int) -> str:
        if not self.several:
            return ""
        self.line += self.text.count("\n", self.index, index)
        self.index = index
        return f"line {self.line}: "


def parse_markup(text: str) -> Parsed:
    """The segments of a text, adjacent plain text merged; never raises."""
    segments: list[Segment] = []
    problems: list[str] = []
    plain: list[str] = []
    line_of = _Lines(text)
    no_closer_from = len(text) + 1  # a search for a closing ``` from here on finds none

    def flush() -> None:
        if plain:
            segments.append(Plain("".join(plain)))
            plain.clear()

    i, n = 0, len(text)
    while i < n:
        special = _SPECIAL.search(text, i)
        if special is None:
            plain.append(text[i:])
            break
        if special.start() > i:
            plain.append(text[i : special.start()])
            i = special.start()
        if text[i] == "\\":
            plain.append("`" if text.startswith("`", i + 1) else "\\")
            i += 2 if text.startswith("`", i + 1) else 1
            continue
        run = _backticks(text, i)
        at_line_start = i == 0 or text[i - 1] == "\n"
        if run == 3 and at_line_start and (opener := _OPENER.match(text, i)):
            closer = None
            if opener.end() < no_closer_from:
                closer = _CLOSER.search(text, opener.end())
                if closer is None:  # nor will any later opener's search: never search again
                    no_closer_from = opener.end()
            if closer is not None and opener.group(0).endswith("\n"):
                body_end = max(closer.start() - 1, opener.end())
                flush()
                segments.append(CodeBlock(text[opener.end() : body_end], opener.group(1) or None))
                i = closer.end()
                continue
            problems.append(
                f"{line_of(i)}a ``` code block is not closed (a line with just ``` closes it)"
            )
        elif run >= 3 and at_line_start:
            problems.append(
                f"{line_of(i)}``` opens a code block only alone on its line, with an "
                "optional language such as ```python"
            )
        elif run >= 2:
            problems.append(
                f"{line_of(i)}{run} backticks in a row show as they are: inline code takes "
                "one backtick on each side, and a literal backtick is written \\`"
            )
        if run >= 2:
            plain.append("`" * run)
            i += run
            continue
        code, j = _inline(text, i + 1)
        if code is None:
            problems.append(
                f"{line_of(i)}a ` starts inline code that is not closed on its line; "
                "a literal backtick is written \\`"
            )
            plain.append("`")
            i += 1
            continue
        flush()
        segments.append(InlineCode(code))
        i = j
    flush()
    return Parsed(tuple(segments), tuple(problems))


def _inline(text: str, start: int) -> tuple[str | None, int]:
    """Inline code from `start` (after its opening backtick) to the closing one on the same
    line: (the code, the index after the closing backtick), or (None, start)."""
    code: list[str] = []
    j = start
    while j < len(text) and text[j] != "\n":
        if text[j] == "\\" and text.startswith("`", j + 1):
            code.append("`")
            j += 2
        elif text[j] == "`":
            return ("".join(code), j + 1) if code else (None, start)
        else:
            code.append(text[j])
            j += 1
    return None, start


def segments(text: str) -> tuple[Segment, ...]:
    return parse_markup(text).segments


def problems(text: str) -> tuple[str, ...]:
    return parse_markup(text).problems if "`" in text else ()


def flatten(text: str) -> str:
    """The text with its code shown as plain text (for button labels); newlines kept."""
    parts = []
    for segment in segments(text):
        match segment:
            case Plain(plain):
                parts.append(plain)
            case InlineCode(code) | CodeBlock(code):
                parts.append(code)
    return "".join(parts)


def to_source(parsed: Iterable[Segment]) -> str:
    """Text that parses back into these segments.

    Exact for segments a text can hold: inline code is one non-empty line not ending in a
    backslash, plain text before inline code does not end in a backslash, a block starts a
    line and is followed by a line break or the end, and no line of a block is just ```.
    """
    out: list[str] = []
    for segment in parsed:
        match segment:
            case Plain(plain):
                out.append(plain.replace("`", "\\`"))
            case InlineCode(code):
                out.append("`" + code.replace("`", "\\`") + "`")
            case CodeBlock(code, language):
                out.append(f"```{language or ''}\n{code}{chr(10) if code else ''}```")
    return "".join(out)


_SENTENCE_END = re.compile(r"[.!?][\"'’”)\]]*\s+")
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "dr", "mr", "mrs", "ms", "no", "fig"})


def _ends_sentence(text: str, end: re.Match[str], after_code: bool) -> bool:
    following = text[end.end() : end.end() + 1]
    if not following or following.islower():
        return False
    before = text[: end.start()]
    if not before:
        return after_code  # `code`. Then: the code was the sentence's last word
    word = before.rsplit(None, 1)[-1].lstrip("(\"'‘“").lower() if before.strip() else ""
    return len(word) > 1 and word not in _ABBREVIATIONS


def first_sentence(parsed: Iterable[Segment]) -> tuple[tuple[Segment, ...], tuple[Segment, ...]]:
    """The segments split after the first sentence: its end is a `.`, `!` or `?` in plain text
    (closing quotes and brackets kept with it) before a space and a word that does not start
    in lower case, not after an abbreviation (e.g., etc.) or an initial. With no such end,
    everything is the first part."""
    segments_in = tuple(parsed)
    for index, segment in enumerate(segments_in):
        if not isinstance(segment, Plain):
            continue
        for end in _SENTENCE_END.finditer(segment.text):
            if _ends_sentence(segment.text, end, after_code=index > 0):
                head = segment.text[: end.end()].rstrip()
                tail = segment.text[end.end() :]
                before = (*segments_in[:index], Plain(head))
                return before, (Plain(tail), *segments_in[index + 1 :])
    return segments_in, ()
