"""docs/architecture.md against the tree: every path it names exists, the features it lists are
the layout test's, and the rules it states are the ones tests/test_layout.py enforces (each
rule names its test, and every test of the layout is named)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests import test_layout

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
# a path into the tree: a top folder, then names; `<feature>`-like placeholders are not paths
PATH = re.compile(r"(?<![\w/.<-])((?:bot|content|storage|tests|bench|docs)/[\w./-]*)")
# a file named alone, in a table or a sentence: `learner_store.py`
FILE = re.compile(r"`([\w-]+\.py)`")


def _named_paths() -> set[str]:
    return {found.rstrip(".") for found in PATH.findall(PAGE)}


def test_every_path_the_page_names_exists() -> None:
    paths = _named_paths()
    assert len(paths) > 40  # the page is read
    assert sorted(p for p in paths if not (ROOT / p).exists()) == []


def test_every_file_the_page_names_alone_exists_somewhere() -> None:
    files = set(FILE.findall(PAGE))
    assert "learner_store.py" in files
    assert sorted(f for f in files if not any(ROOT.glob(f"**/{f}"))) == []


def test_the_features_of_the_page_are_the_layout_tests() -> None:
    table = re.findall(r"^\| `bot/(\w+)/` \|", PAGE, flags=re.MULTILINE)
    assert {f"bot.{name}" for name in table} == set(test_layout.FEATURES)
    graph = PAGE[PAGE.index('subgraph features["features') : PAGE.index("    end\n")]
    assert {f"bot.{name}" for name in re.findall(r'\["bot/(\w+)/"\]', graph)} == set(
        test_layout.FEATURES
    )


def test_each_rule_of_the_page_is_a_test_of_the_layout_and_each_test_is_stated() -> None:
    rules = PAGE[PAGE.index("The rules, each held by") : PAGE.index("## A feature's folder")]
    named = set(re.findall(r"`(test_\w+)`", rules))
    tree = ast.parse(Path(test_layout.__file__).read_text(encoding="utf-8"))
    tests = {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }
    assert named == tests - {"test_the_sources_are_read"}
