"""Interface strings per language, and `Locale`: a person's language, through which every
string and every content field is put into words. A missing string falls back to English.

Strings are HTML-safe templates: `{placeholders}` are filled with values the caller has
already escaped. They live in one YAML file per language, `bot/core/strings/<language>.yaml`,
so a translator edits text, not code (a Yoruba line waiting for a native speaker's review
ends in `# yo: review`); they are read once, when this module is imported.

A string with a count in it (`{n}` questions) is a plural: one template per plural category
of its language, as CLDR defines them (Babel's data: English has `one` and `other`, Yoruba
`other` only), and the count `n` chooses among them:

    n_questions:
      one: "{n} question"
      other: "{n} questions"
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from importlib import resources

from babel import Locale as CldrLocale
from babel.plural import PluralRule

from bot.core.display import without_overrides
from bot.core.telegram_html import from_markup
from content.markup import flatten
from content.model import LocalizedText, clip
from content.safe_yaml import load_bank_yaml

FALLBACK = "en"

LANGUAGE_NAMES = {"en": "English", "yo": "Yorùbá"}

STRINGS_FOLDER = resources.files("bot.core") / "strings"


Entry = str | dict[str, str]  # a template, or a plural's templates by CLDR category


def plural_rule(language: str) -> PluralRule:
    """The language's plural rule, from CLDR (Babel)."""
    return CldrLocale.parse(language).plural_form


def plural_categories(language: str) -> frozenset[str]:
    """The plural categories a plural string has in this language (`other` always)."""
    return frozenset(plural_rule(language).tags | {"other"})


def _strings(language: str) -> dict[str, Entry]:
    """The interface strings of a language, from `bot/core/strings/<language>.yaml`: one
    `key: template` a line, or a plural (`key:` then a template per plural category of the
    language, every one of them and no other), no key twice."""
    name = f"{language}.yaml"
    table = load_bank_yaml((STRINGS_FOLDER / name).read_bytes())
    if not isinstance(table, dict) or not all(
        isinstance(key, str) and (isinstance(entry, str) or _is_forms(entry))
        for key, entry in table.items()
    ):
        raise ValueError(f"bot/core/strings/{name}: every entry must be `key: text` or a plural")
    categories = plural_categories(language)
    for key, entry in table.items():
        if isinstance(entry, dict) and set(entry) != categories:
            raise ValueError(
                f"bot/core/strings/{name}: {key} has the plural forms {sorted(entry)}; "
                f"{LANGUAGE_NAMES.get(language, language)} has {sorted(categories)}"
            )
    return table


def _is_forms(entry: object) -> bool:
    return isinstance(entry, dict) and all(
        isinstance(category, str) and isinstance(text, str) for category, text in entry.items()
    )


STRINGS: dict[str, dict[str, Entry]] = {language: _strings(language) for language in LANGUAGE_NAMES}
PLURAL_RULES = {language: plural_rule(language) for language in STRINGS}


def translate(language: str, key: str, /, **values: object) -> str:
    """The string `key` in `language` (or English), with `values` filled in; a plural's form
    is the one its language's rule gives the count `n`."""
    entry = STRINGS.get(language, {}).get(key)
    if not entry:
        language, entry = FALLBACK, STRINGS[FALLBACK][key]
    if isinstance(entry, dict):
        count = values.get("n")
        if not isinstance(count, int | float):
            raise TypeError(f"the plural string {key!r} needs its count, n, as a number")
        entry = entry[PLURAL_RULES[language](abs(count))]
    return entry.format(**values) if values else entry


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
