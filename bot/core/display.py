"""Other people's text inside the bot's messages: names, echoed arguments, bank text.

A name or an argument is someone else's text placed inside our sentence. A bidi embedding or
override control in it (U+202A-U+202E) reorders the rest of the line, an unbalanced isolate
(U+2066-U+2069) leaks out of it, zero-width characters make two different names look alike,
and a long one pushes the message past Telegram's limit. `isolate` removes those, shortens
what is left and wraps it in FSI...PDI (U+2068, U+2069), so it is laid out on its own, in its
own direction, and cannot reach the text around it.

Bank text is written by admins and may be right-to-left on purpose: `without_overrides`
removes only the embedding, override and isolate controls, and keeps the zero-width joiners
that emoji sequences and some scripts need.
"""

from __future__ import annotations

import unicodedata

from content.model import clip

FSI, PDI = "\u2068", "\u2069"
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Dropped from people's text: every invisible format character (category Cf: the bidi
# controls, zero-width space, joiners, word joiner, BOM, soft hyphen, tag characters),
# controls (Cc: NUL, escapes; line breaks become spaces) and lone surrogates (Cs), which
# cannot be encoded to send.
_DROPPED_CATEGORIES = frozenset({"Cf", "Cc", "Cs"})
NAME_LIMIT = 64  # UTF-16 units, as Telegram counts
ECHO_LIMIT = 32

_WITHOUT_OVERRIDES = str.maketrans(dict.fromkeys(map(ord, BIDI_CONTROLS)))


def visible_part(text: str) -> str:
    """`text` without controls, bidi controls and invisible characters, on one line."""
    kept = (
        " " if char.isspace() else char
        for char in text
        if char.isspace() or unicodedata.category(char) not in _DROPPED_CATEGORIES
    )
    return " ".join("".join(kept).split())


def isolate(text: str, limit: int = NAME_LIMIT) -> str:
    """Someone's text, cleaned, clipped to `limit` and isolated; "" when nothing is left.

    Plain text: escape the result for HTML (escaping adds no control characters)."""
    visible = visible_part(text)
    return f"{FSI}{clip(visible, limit)}{PDI}" if visible else ""


def without_overrides(text: str) -> str:
    """Bank text without bidi embedding, override and isolate controls."""
    return text.translate(_WITHOUT_OVERRIDES)
