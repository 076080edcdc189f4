"""The seed bank as shipped: no machine path in it, and a guide that is a real page."""

from __future__ import annotations

from bot.config import DEFAULT_CONTENT_DIR
from content.loader import bank_files, load_bank_file


def test_the_seed_bank_names_no_machine_path_and_links_a_real_guide() -> None:
    for path in bank_files(DEFAULT_CONTENT_DIR):
        text = path.read_text(encoding="utf-8")
        assert "/work/" not in text and "/home/" not in text, path
        quiz = load_bank_file(path, "en").quiz  # pictures are read beside the bank
        assert quiz is not None
        if quiz.guide is not None:
            assert "example.org" not in quiz.guide.url and "example.com" not in quiz.guide.url
