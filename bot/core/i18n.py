"""Interface strings per language, and `Locale`: a person's language, through which every
string and every content field is put into words. A missing string falls back to English.

Strings are HTML-safe templates: `{placeholders}` are filled with values the caller has
already escaped. They live in one YAML file per language, `bot/core/strings/<language>.yaml`,
so a translator edits text, not code (a Yoruba line waiting for a native speaker's review
ends in `# yo: review`); they are read once, when this module is imported.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from importlib import resources

from bot.core.display import without_overrides
from bot.core.telegram_html import from_markup
from content.markup import flatten
from content.model import LocalizedText, clip
from content.safe_yaml import load_bank_yaml

FALLBACK = "en"

LANGUAGE_NAMES = {"en": "English", "yo": "Yorùbá"}

STRINGS_FOLDER = resources.files("bot.core") / "strings"


def _strings(language: str) -> dict[str, str]:
    """The interface strings of a language, from `bot/core/strings/<language>.yaml`: one
    `key: template` a line, no key twice."""
    name = f"{language}.yaml"
    table = load_bank_yaml((STRINGS_FOLDER / name).read_bytes())
    if not isinstance(table, dict) or not all(
        isinstance(key, str) and isinstance(text, str) for key, text in table.items()
    ):
        raise ValueError(f"bot/core/strings/{name}: every entry must be `key: text`")
    return table


STRINGS: dict[str, dict[str, str]] = {language: _strings(language) for language in LANGUAGE_NAMES}


def translate(language: str, key: str, /, **values: object) -> str:
    """The string `key` in `language` (or English), with `values` filled in."""
    template = STRINGS.get(language, {}).get(key) or STRINGS[FALLBACK][key]
    return template.format(**values) if values else template


def ui_languages() -> frozenset[str]:
    return frozenset(STRINGS)


def language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code, code)


@dataclass(frozen=True)
class Locale:
    """A person's language and the content's default, for field-by-field fallback."""

    language: str
    default: str

    def t(self, key: str, /, **values: object) -> str:
        return translate(self.language, key, **values)

    def plain(self, value: LocalizedText) -> str:
        """A content field in this language, as plain text (no bidi overrides)."""
        return without_overrides(value.get(self.language, self.default))

    def text(self, value: LocalizedText, limit: int) -> str:
        """A content field in this language, clipped to `limit`, escaped for HTML.

        Valid banks never need the clip; it keeps every message inside Telegram's limit
        whatever the content.
        """
        return html.escape(clip(self.plain(value), limit))

    def rich(self, value: LocalizedText, limit: int) -> str:
        """A question's, an option's or an explanation's text in this language, clipped to
        `limit`, as Telegram HTML with its code shown as code (`telegram_html.from_markup`)."""
        return from_markup(clip(self.plain(value), limit))

    def label(self, value: LocalizedText) -> str:
        """A content field as plain text with its code flattened: for buttons and polls."""
        plain = self.plain(value)
        return flatten(plain) if "`" in plain else plain
