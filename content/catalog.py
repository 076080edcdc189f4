"""The quizzes the bot serves: parsed once at start, then changed a whole quiz at a time
(an admin's import or edit replaces one quiz; nothing is parsed per update). With them, the
bytes of their pictures by SHA-256 (`Image.sha256`), checked when their bank was read."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from content.loader import bank_files, load_banks
from content.model import Quiz

log = logging.getLogger(__name__)


class Catalog:
    def __init__(
        self,
        quizzes: list[Quiz],
        default_language: str,
        images: Mapping[str, bytes] | None = None,
    ) -> None:
        self.default_language = default_language
        self._quizzes = {quiz.id: quiz for quiz in quizzes}
        self._images: dict[str, bytes] = {}
        self.add_images((images or {}).values())

    @classmethod
    def from_folder(cls, folder: Path, default_language: str) -> Catalog:
        """Load every bank of a folder; refused banks are logged with each error."""
        quizzes = []
        catalog = cls([], default_language)
        for result in load_banks(bank_files(folder), default_language):
            if result.quiz is None:
                for error in result.errors:
                    log.error("bank %s refused: %s", result.source, error)
                continue
            quizzes.append(result.quiz)
            catalog.put(result.quiz, result.images.values())
        log.info("loaded %d quiz(zes) from %s", len(quizzes), folder)
        return catalog

    def add_images(self, files: Iterable[bytes]) -> None:
        """Keep picture files (checked ones: `BankResult.images`), found by their SHA-256."""
        for data in files:
            self._images[hashlib.sha256(data).hexdigest()] = data

    def image(self, sha256: str) -> bytes | None:
        """A picture's bytes, by the SHA-256 its question names."""
        return self._images.get(sha256)

    def put(self, quiz: Quiz, images: Iterable[bytes] = ()) -> Quiz | None:
        """Add the quiz, or replace the one with its id (keeping its place), with its picture
        files; returns the quiz replaced."""
        self.add_images(images)
        previous = self._quizzes.get(quiz.id)
        self._quizzes[quiz.id] = quiz
        return previous

    def get(self, quiz_id: str) -> Quiz | None:
        return self._quizzes.get(quiz_id)

    def __iter__(self) -> Iterator[Quiz]:
        return iter(self._quizzes.values())

    def __len__(self) -> int:
        return len(self._quizzes)

    @property
    def languages(self) -> frozenset[str]:
        found: set[str] = {self.default_language}
        for quiz in self:
            found |= quiz.languages
        return frozenset(found)
