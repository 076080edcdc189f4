"""The README and docs/ stay true: every relative link and anchor resolves inside the
repository, every path they name exists, the README stays a user's page (at most 300 lines,
its example bank valid), and the pages for users speak the users' language."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from content.loader import parse_bank

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = sorted([README, *(ROOT / "docs").rglob("*.md")])
# The guides for the people who use or run the bot: what to do and what to expect, never
# how it is built (that is docs/design/).
GUIDES = [ROOT / "docs" / name for name in ("learners.md", "teachers.md", "operations.md")]

_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
_CODE_BLOCK = re.compile(r"^```.*?^```", re.S | re.M)
_PATH = re.compile(r"`((?:bot|content|storage|tests|bench|docs)/[A-Za-z0-9_./-]+)`")


def _prose(page: Path) -> str:
    return _CODE_BLOCK.sub("", page.read_text(encoding="utf-8"))


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    kept = "".join(
        char for char in text if char in " -_" or unicodedata.category(char)[0] in ("L", "N", "M")
    )
    return kept.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    seen: Counter[str] = Counter()
    found = set()
    for line in _prose(page).splitlines():
        if match := re.match(r"#{1,6} (.+)", line):
            slug = _slug(match.group(1))
            found.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
            seen[slug] += 1
    return found


def _links(page: Path) -> list[str]:
    return [a or b for a, b in _LINK.findall(_prose(page))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(page: Path) -> None:
    broken = []
    for link in _links(page):
        if re.match(r"[a-z]+:", link):
            continue
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        if not path.is_relative_to(ROOT) or not path.exists():
            broken.append(f"{link}: no such file in the repository")
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(f"{link}: no heading with that anchor")
    assert broken == []


def _exists(named: str) -> bool:
    """A path, or a name in a module written as its path (`bot/core/tables.neutralize`)."""
    path = named.rstrip(".")
    while path:
        if (ROOT / path).exists() or (ROOT / f"{path}.py").exists():
            return True
        path, dot, _ = path.rpartition(".")
        if not dot or "/" not in path:
            return False
    return False


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_named_exists(page: Path) -> None:
    missing = [
        path for path in _PATH.findall(page.read_text(encoding="utf-8")) if not _exists(path)
    ]
    assert missing == []


def test_the_readme_is_a_users_page() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300


def test_the_readmes_bank_is_valid() -> None:
    example = re.search(r"```yaml\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert example is not None
    result = parse_bank(example.group(1), "README.md", "en")
    assert result.errors == ()
    assert result.quiz is not None and len(result.quiz.questions) >= 2


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_speaks_of_issues(page: Path) -> None:
    assert re.findall(r"(?i)\bissues? \d+", page.read_text(encoding="utf-8")) == []


# How the bot was made is not what any page is about: no page under docs/ (user pages and
# design records alike) speaks of who did the work, in which round or on which branch.
_WORKSHOP = re.compile(
    r"(?i)stand-in|floor bot|\b(?:first|second|third) pass\b|\battack\d+"
    r"|\bthe lead\b|\blead's\b|\(lead\b|\bhelpers?\b|\bhelpers'"
    r"|\bthe issue\b|\bissue's\b|\bissue (?:was|is|asks|allows|item)\b|\bitem \d+\b"
    r"|\bthe brief\b|\bthis branch\b|\bbranch `|\bthis wave\b|\bthis change\b"
    r"|what was built|left alone, noticed|\bmy report\b"
    r"|\b(?:sec|grade|fid|store|cmd|year|tutor|teach|exam|app|dedup|groupscale|rich|media"
    r"|fsrs|scale|layout|split|toast|docs|forget)\d{2}[a-z]?\b"
)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_uses_words_of_the_workshop(page: Path) -> None:
    found = [m.group(0) for m in _WORKSHOP.finditer(page.read_text(encoding="utf-8"))]
    assert found == []


_SOURCE = re.compile(
    r"`(?:bot|storage|tests|bench)/[^`]*`|`content/(?!banks\b)[^`]*`|\bmigration \d+"
)


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_guides_name_no_source_code(page: Path) -> None:
    assert _SOURCE.findall(page.read_text(encoding="utf-8")) == []
