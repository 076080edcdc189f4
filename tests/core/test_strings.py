"""The interface strings' files (bot/core/strings/<language>.yaml) as the bot reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core import i18n


def test_every_language_has_its_file_with_a_text_for_every_english_key() -> None:
    assert set(i18n.STRINGS) == set(i18n.LANGUAGE_NAMES)
    english = i18n.STRINGS["en"]
    texts = [t for e in english.values() for t in (e.values() if isinstance(e, dict) else [e])]
    assert len(english) > 300 and all(text.strip() for text in texts)
    assert set(i18n.STRINGS["yo"]) == set(english)


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("welcome: Hello\nwelcome: Hi\n", "duplicate key"),
        ("welcome: [Hello]\n", "every entry must be `key: text` or a plural"),
        ("- welcome\n", "every entry must be `key: text`"),
        ("true: yes\n", "every entry must be `key: text`"),
    ],
)
def test_a_strings_file_that_is_not_one_text_per_key_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, refusal: str
) -> None:
    (tmp_path / "xx.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(i18n, "STRINGS_FOLDER", tmp_path)
    with pytest.raises(ValueError, match=refusal):
        i18n._strings("xx")
