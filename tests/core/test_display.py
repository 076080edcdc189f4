"""People's text inside the bot's messages (bot/display.py): names isolated, bank text
without overrides, boards that stay valid HTML whatever the names."""

from __future__ import annotations

import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.core import render
from bot.core.display import FSI, NAME_LIMIT, PDI, isolate, without_overrides
from bot.core.i18n import Locale
from bot.core.render import MAX_MESSAGE_LENGTH
from bot.group import render as render_group
from bot.sandbox.html_check import telegram_length, visible_text
from content.model import LocalizedText
from storage.group_store import ScoreRow

OVERRIDES = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
INVISIBLE = set("\u200b\u200c\u200d\u2060\ufeff")
TRICKY = "".join(OVERRIDES | INVISIBLE) + "\u200e\u200f\u00ad\x00\n\t abcאבגعربي😀👨\u200d💻<&>"
TEXT = st.text(st.one_of(st.characters(exclude_categories=()), st.sampled_from(TRICKY)))
EN, YO = Locale("en", "en"), Locale("yo", "en")


@given(TEXT, st.integers(min_value=1, max_value=100))
@settings(max_examples=500, deadline=None)
@example("\u202eevil", NAME_LIMIT)
@example("Mal\u200dlory", NAME_LIMIT)
@example("\u2069\u2069\u2068", NAME_LIMIT)
def test_an_isolated_name_has_no_control_and_one_balanced_isolate(name: str, limit: int) -> None:
    shown = isolate(name, limit)
    if not shown:
        return
    assert shown[0] == FSI and shown[-1] == PDI
    inner = shown[1:-1]
    assert inner and inner == inner.strip()
    assert not any(unicodedata.category(char) in {"Cf", "Cc", "Cs"} for char in inner)
    assert not set(inner) & (OVERRIDES | INVISIBLE)
    assert telegram_length(inner) <= limit


def test_isolate_keeps_what_is_visible() -> None:
    assert isolate("\u202eMal\u200dlory") == f"{FSI}Mallory{PDI}"
    assert isolate("  Ada\n Lovelace\t") == f"{FSI}Ada Lovelace{PDI}"
    assert isolate("عربي") == f"{FSI}عربي{PDI}"
    assert isolate("\u200b\u2060\ufeff\u202e") == ""
    assert isolate("x" * 100) == f"{FSI}{'x' * 63}…{PDI}"


@given(TEXT)
@settings(max_examples=300, deadline=None)
def test_bank_text_loses_its_overrides_only(text: str) -> None:
    cleaned = without_overrides(text)
    assert not set(cleaned) & OVERRIDES
    assert cleaned == "".join(char for char in text if char not in OVERRIDES)


def test_bank_text_is_shown_without_overrides_but_keeps_joiners() -> None:
    field = LocalizedText({"en": "\u202eevil 👨\u200d💻", "yo": "\u2067ok"})
    assert EN.plain(field) == "evil 👨\u200d💻"
    assert YO.text(field, 100) == "ok"


def test_a_name_is_escaped_isolated_or_named_as_missing() -> None:
    assert render.person("<Cy & Co>", EN) == f"{FSI}&lt;Cy &amp; Co&gt;{PDI}"
    assert render.person("\u200b", EN) == "(no name)"
    assert render.person("", YO) == "(kò ní orúkọ)"


@given(st.lists(TEXT, min_size=1, max_size=12))
@settings(max_examples=200, deadline=None)
def test_boards_stay_valid_html_that_fits_whatever_the_names(names: list[str]) -> None:
    rows = [ScoreRow(i, name, 1000 - i, 3, 3, 12.5) for i, name in enumerate(names)]
    for locale in (EN, YO):
        text = render_group.leaderboard("Quiz", True, rows, rows, locale)
        shown = visible_text(text, "HTML")
        assert telegram_length(shown) <= MAX_MESSAGE_LENGTH
        assert not set(shown) & (OVERRIDES - {FSI, PDI})
        depth = 0
        for char in shown:
            depth += {FSI: 1, PDI: -1}.get(char, 0)
            assert depth in (0, 1)
        assert depth == 0
