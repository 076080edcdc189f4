"""Telegram's HTML as the bot writes it: its length as Telegram counts it, and a split into
messages that each fit.

Telegram limits a message to 4,096 UTF-16 units of text *after* entity parsing: tags count
nothing and `&amp;` counts one. A split is made between characters of that text, never inside
a tag or an entity, and tags open at a cut are closed at its end and opened again after it,
so every piece is valid HTML on its own. A code block (`<pre>`) or a block quote
(`<blockquote>`, expandable or not) is cut only when it alone is over the limit. Bank text becomes HTML here too (`from_markup`): its code as code, the rest
escaped. Pure: text in, text out.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from content.markup import CodeBlock, InlineCode, Plain, Segment, first_sentence, segments
from content.model import utf16_length

_TOKEN = re.compile(
    r"<(/?)([a-zA-Z][a-zA-Z0-9-]*+)(?:\s[^<>]*+)?>"  # a tag (possessive: one pass to its >)
    r"|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);"  # an entity
    r"|.",  # one character
    re.DOTALL,
)

# Where a cut may go, after a character; the best place in reach wins. Inside a code block
# (`<pre>`) a cut is the last resort: only a block longer than a whole message is cut.
LINE, SPACE, CHARACTER, BLOCK_LINE, BLOCK_CHARACTER, NEVER = 5, 4, 3, 2, 1, 0

BLOCK_SEPARATOR = "\n\n"
BLOCKS = frozenset({"pre", "blockquote"})  # kept whole unless one alone is over the limit


@dataclass(frozen=True, slots=True)
class _Tag:
    raw: str
    name: str
    closing: bool


@dataclass(slots=True)
class _Char:
    raw: str  # as written: "a", "&amp;"
    text: str  # as shown: "a", "&"
    units: int  # UTF-16 units Telegram counts
    cut_after: int = CHARACTER


_Token = _Tag | _Char


def _parse(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    for match in _TOKEN.finditer(text):
        raw = match.group(0)
        if match.group(2) is not None:
            tokens.append(_Tag(raw, match.group(2).lower(), closing=bool(match.group(1))))
        else:
            shown = html.unescape(raw) if len(raw) > 1 else raw
            tokens.append(_Char(raw, shown, utf16_length(shown)))
    return tokens


_TAG = re.compile(r"<[^<>]*+>")  # a `<` ends the search: `<<<<` costs one pass, not its square
_ENTITY = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);")


def visible_length(text: str) -> int:
    """The length Telegram counts for `text` in HTML parse mode."""
    bare = _TAG.sub("", text)
    entities = Counter(_ENTITY.findall(bare))  # counted in C: a bank may hold many
    return utf16_length(bare) - sum(
        count * (len(entity) - utf16_length(html.unescape(entity)))
        for entity, count in entities.items()
    )


def _shows_something(text: str) -> bool:
    return bool(_TAG.sub("", text).strip())


def _glued(before: str, after: str) -> bool:
    """True where a cut would split what is shown as one character (letter + combining mark,
    an emoji sequence, a flag)."""
    if after in "\u200d\ufe0e\ufe0f" or before == "\u200d":
        return True
    if unicodedata.combining(after) or unicodedata.category(after) in {"Mn", "Me", "Mc"}:
        return True
    if "\U0001f3fb" <= after <= "\U0001f3ff":  # skin tone modifiers
        return True
    regional = "\U0001f1e6" <= before <= "\U0001f1ff" and "\U0001f1e6" <= after <= "\U0001f1ff"
    return regional


def _rank_cuts(tokens: list[_Token]) -> list[_Token]:
    chars: list[tuple[_Char, bool]] = []  # each character, and whether a code block holds it
    in_block = 0
    for token in tokens:
        if isinstance(token, _Tag):
            if token.name in BLOCKS:
                in_block += -1 if token.closing else 1
        else:
            chars.append((token, in_block > 0))
    for index, (char, blocked) in enumerate(chars):
        following = chars[index + 1][0].text if index + 1 < len(chars) else None
        last_of_block = blocked and (index + 1 == len(chars) or not chars[index + 1][1])
        if following is not None and _glued(char.text[-1], following[0]):
            char.cut_after = NEVER
        elif blocked and not last_of_block:
            char.cut_after = BLOCK_LINE if char.text == "\n" else BLOCK_CHARACTER
        elif char.text == "\n":
            char.cut_after = LINE
        elif char.text.isspace():
            char.cut_after = SPACE
        else:
            char.cut_after = CHARACTER
    return tokens


def _choose_cut(best: dict[int, tuple[int, int]], limit: int) -> int | None:
    """The cut to make among the last cut of each rank in reach, as (token index, units)."""
    for rank in (LINE, SPACE):  # a line end, else a space, that keeps the piece at half size
        if rank in best and best[rank][1] >= limit // 2:
            return best[rank][0]
    for rank in (LINE, SPACE, CHARACTER, BLOCK_LINE, BLOCK_CHARACTER):
        if rank in best:
            return best[rank][0]
    return None


def _closes(token: _Token) -> bool:
    return isinstance(token, _Tag) and token.closing


def _next_cut(tokens: list[_Token], start: int, limit: int) -> int:
    """The end (exclusive) of the piece that begins at `start`."""
    used = 0
    best: dict[int, tuple[int, int]] = {}
    for index in range(start, len(tokens)):
        token = tokens[index]
        if not isinstance(token, _Char):
            continue
        if used + token.units > limit:
            cut = _choose_cut(best, limit)
            # nothing shown as one character fits: cut between code points
            return cut if cut is not None else max(index, start + 1)
        used += token.units
        if token.cut_after != NEVER:
            end = index + 1
            while end < len(tokens) and _closes(tokens[end]):
                end += 1  # a cut after a character keeps the tags that close right after it
            best[token.cut_after] = (end, used)
    return len(tokens)


def _render(piece: list[_Token], open_before: list[_Tag]) -> tuple[str | None, list[_Tag]]:
    """The piece as HTML, whitespace at its ends left out (Telegram trims it anyway), with
    the tags open before it opened again and those open after it closed; None if it shows
    nothing. Also the tags open after it."""
    shown = [i for i, t in enumerate(piece) if isinstance(t, _Char) and not t.text.isspace()]
    open_after = list(open_before)
    for token in piece:
        if isinstance(token, _Tag):
            if token.closing:
                if open_after and open_after[-1].name == token.name:
                    open_after.pop()
            else:
                open_after.append(token)
    if not shown:
        return None, open_after
    first, last = shown[0], shown[-1]
    body = "".join(
        token.raw for i, token in enumerate(piece) if isinstance(token, _Tag) or first <= i <= last
    )
    opening = "".join(tag.raw for tag in open_before)
    closing = "".join(f"</{tag.name}>" for tag in reversed(open_after))
    return opening + body + closing, open_after


def _split_block(block: str, limit: int) -> list[str]:
    """One block over the limit, cut into pieces that each fit."""
    tokens = _rank_cuts(_parse(block))
    pieces: list[str] = []
    start, open_tags = 0, list[_Tag]()
    while start < len(tokens):
        cut = _next_cut(tokens, start, limit)
        text, open_tags = _render(tokens[start:cut], open_tags)
        if text is not None:
            pieces.append(text)
        start = cut
    return pieces


def split_blocks(blocks: Sequence[str], limit: int) -> list[str]:
    """The blocks joined with blank lines into as few messages of at most `limit` (as Telegram
    counts) as they fit in. A block is split only when it alone is over the limit: at a line
    end, else at a space, else between characters, never inside a tag, an entity, or a letter
    and its combining marks."""
    if limit < 2:
        raise ValueError("a message must hold at least one character of two UTF-16 units")
    messages: list[str] = []
    current: list[str] = []
    used = 0

    def flush() -> None:
        text = BLOCK_SEPARATOR.join(current)
        if _shows_something(text):
            messages.append(text)

    for block in blocks:
        length = visible_length(block)
        if length > limit:
            flush()
            messages.extend(_split_block(block, limit))
            current, used = [], 0
            continue
        needed = used + len(BLOCK_SEPARATOR) + length if current else length
        if current and needed > limit:
            flush()
            current, needed = [], length
        current.append(block)
        used = needed
    flush()
    return messages


def from_markup(text: str) -> str:
    """Bank text (content/markup.py) as Telegram HTML: fenced blocks as
    `<pre><code class="language-…">`, inline code as `<code>`, everything else escaped."""
    if "`" not in text:  # no code (nearly every text): nothing to parse
        return html.escape(text)
    return _segments_html(segments(text))


def _segments_html(parsed: Sequence[Segment]) -> str:
    parts = []
    for segment in parsed:
        match segment:
            case Plain(plain):
                parts.append(html.escape(plain))
            case InlineCode(code):
                parts.append(f"<code>{html.escape(code)}</code>")
            case CodeBlock(code, language) if code:
                body = html.escape(code)
                if language:
                    body = f'<code class="language-{html.escape(language)}">{body}</code>'
                parts.append(f"<pre>{body}</pre>")
    return "".join(parts)


FOLD_AFTER = 300  # characters: a longer explanation shows its first sentence, the rest folded


def folded(text: str) -> str:
    """Bank text as HTML (`from_markup`); when it is longer than `FOLD_AFTER` characters, its
    first sentence, then the rest in an expandable blockquote (`<blockquote expandable>`: the
    Telegram app shows its first lines and expands it on a tap). Text with a code block stays
    whole: a block quote cannot hold one."""
    parsed = segments(text)
    if utf16_length(text) <= FOLD_AFTER or any(isinstance(s, CodeBlock) for s in parsed):
        return from_markup(text)
    head, tail = first_sentence(parsed)
    rest = _segments_html(tail).strip()
    if not rest:
        return from_markup(text)
    return f"{_segments_html(head)}\n<blockquote expandable>{rest}</blockquote>"
