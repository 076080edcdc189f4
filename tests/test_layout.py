"""The shape of the house, read from the source (ast), so that it stays this way
(docs/architecture.md):

- `content/` and `storage/` know nothing of Telegram or of the bot (the storage command line,
  `python -m storage`, reads the bot's configuration: `bot.config`, which imports no Telegram);
  `content/` imports nothing of `storage/`;
- a feature (every folder of `bot/` but `core`, `sandbox` and `serving`) imports `bot/core`,
  `bot.config`, `content` and `storage`, never another feature;
- `bot/core` imports no feature, nor the application that wires them;
- `bot/sandbox`, the Bot API stand-in and the sandbox's chat page, imports nothing of the bot,
  but for `bot/sandbox/run.py`, the launcher of `python -m bot sandbox`, which starts the bot
  beside them; nothing of the bot imports the sandbox but `bot/__main__.py`;
- at most 6 modules directly in `bot/`;
- no import circle;
- no module reaches into another module's private names (`x._name` where `_name` is defined
  elsewhere);
- grading lives in `content/grading.py` alone: no other module defines `grade*`, `credit*`,
  `*_score` or `right_choices`, or takes a grader from `content.answers`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "content", "storage")
FEATURES = (
    "bot.learner", "bot.group", "bot.admin", "bot.reports", "bot.homework", "bot.chats",
    "bot.common", "bot.dashboard",
)  # fmt: skip
NOT_FEATURES = ("core", "sandbox", "serving")  # the folders of bot/ that are not features


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found[_module_name(path)] = path
    return found


SOURCES = _sources()


def _imports(name: str, path: Path) -> Iterator[str]:
    """Every module `name` imports (anywhere in the file): `from a import b` names the module
    `a.b` where there is one, else `a`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                yield submodule if submodule in SOURCES else base


IMPORTS = {name: set(_imports(name, path)) for name, path in SOURCES.items()}


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _offences(importer: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{name} imports {target}"
        for name, targets in IMPORTS.items()
        if _within(name, importer)
        for target in targets
        if any(_within(target, f) for f in forbidden)
    )


def test_the_sources_are_read() -> None:
    assert {"bot.app", "bot.core.context", "bot.group.flow", "storage.database"} <= set(SOURCES)
    assert (
        "telegram" in IMPORTS["bot.core.context"] or "telegram.ext" in IMPORTS["bot.core.context"]
    )


@pytest.mark.parametrize("package", ["content", "storage"])
def test_content_and_storage_know_nothing_of_telegram_or_the_bot(package: str) -> None:
    offences = _offences(package, ("telegram", "bot"))
    assert [o for o in offences if o != "storage.__main__ imports bot.config"] == []
    assert _offences("bot.config", ("telegram",)) == []


def test_content_imports_no_storage() -> None:
    assert _offences("content", ("storage",)) == []


def test_every_feature_folder_is_known() -> None:
    folders = {
        f"bot.{path.parent.name}"
        for path in (ROOT / "bot").glob("*/__init__.py")
        if path.parent.name not in NOT_FEATURES
    }
    assert folders == set(FEATURES)


@pytest.mark.parametrize("feature", FEATURES)
def test_a_feature_imports_no_other_feature(feature: str) -> None:
    others = tuple(f for f in FEATURES if f != feature)
    assert _offences(feature, (*others, "bot.app", "bot.serving")) == []


SANDBOX_LAUNCHER = "bot.sandbox.run"


def test_the_sandbox_imports_nothing_of_the_bot() -> None:
    offences = _offences("bot.sandbox", ("bot", "content", "storage", "telegram"))
    assert [
        o
        for o in offences
        if not o.split(" imports ")[1].startswith("bot.sandbox")
        and not o.startswith(f"{SANDBOX_LAUNCHER} imports")
    ] == []


def test_only_the_entry_point_imports_the_sandbox() -> None:
    importers = {
        name
        for name, targets in IMPORTS.items()
        if not _within(name, "bot.sandbox") and any(_within(t, "bot.sandbox") for t in targets)
    }
    assert importers == {"bot.__main__"}


def test_the_core_imports_no_feature() -> None:
    assert _offences("bot.core", (*FEATURES, "bot.app", "bot.serving")) == []


def test_at_most_six_modules_directly_in_bot() -> None:
    modules = sorted(path.name for path in (ROOT / "bot").glob("*.py"))
    assert len(modules) <= 6, modules


def test_no_import_circle() -> None:
    ours = {name: {t for t in targets if t in SOURCES} for name, targets in IMPORTS.items()}
    circles = []
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            circles.append(" -> ".join([*path[path.index(name) :], name]))
            return
        if name in done:
            return
        for target in sorted(ours[name]):
            visit(target, [*path, name])
        done.add(name)

    for name in sorted(ours):
        visit(name, [])
    assert circles == []


def _private_names(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, and attributes or class-level names it
    assigns."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        names.add(item.target.id)
        targets = (
            node.targets if isinstance(node, ast.Assign)
            else [node.target] if isinstance(node, ast.AnnAssign) else []
        )  # fmt: skip
        names.update(t.attr for t in targets if isinstance(t, ast.Attribute))
    return {name for name in names if name.startswith("_")}


def _private_reaches(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = _private_names(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        if node.attr.startswith("__") or node.attr in own:
            continue
        value = node.value
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "super"  # a class's own inherited method
        ):
            continue
        yield f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}"


def test_no_module_reaches_into_another_modules_privates() -> None:
    assert [hit for path in SOURCES.values() for hit in _private_reaches(path)] == []


# --- grading lives in one place ---------------------------------------------------------------

GRADING = "content.grading"
# a function that grades, or a grader's name taken from content.answers
_GRADER = re.compile(r"^_*(grade|credit)|_score$|^_*right_choices$")


def _grading_outside(name: str, path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _GRADER.search(node.name):
            yield f"{name} defines {node.name}"
        elif isinstance(node, ast.ImportFrom) and node.module == "content.answers":
            for alias in node.names:
                if _GRADER.search(alias.name) or alias.name == "multiple_score":
                    yield f"{name} imports content.answers.{alias.name}"
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "answers"
            and _GRADER.search(node.attr)
        ):
            yield f"{name} calls answers.{node.attr}"


def test_only_the_grading_module_grades() -> None:
    """content/grading.py is the one place that says how right an answer is: no other module
    defines a grader (`grade*`, `credit*`, `*_score`, `right_choices`) or takes one from
    content.answers, whose parsing helpers the grading module calls."""
    offences = [
        hit
        for name, path in SOURCES.items()
        if name != GRADING
        for hit in _grading_outside(name, path)
    ]
    assert offences == []


def test_the_grading_rule_sees_a_grader_outside_the_grading_module(tmp_path: Path) -> None:
    stray = tmp_path / "stray.py"
    stray.write_text(
        "from content.answers import multiple_score, read_number\n"
        "def credit(question, chosen): ...\n"
        "async def grade_tap(tap): ...\n"
        "def partial_score(x): ...\n"
        "def right_choices(q): ...\n"
        "def score_text(x): ...\n",
        encoding="utf-8",
    )
    assert sorted(_grading_outside("stray", stray)) == [
        "stray defines credit",
        "stray defines grade_tap",
        "stray defines partial_score",
        "stray defines right_choices",
        "stray imports content.answers.multiple_score",
    ]


def test_the_services_are_made_once_and_no_feature_adds_to_them() -> None:
    """What one feature lends another is handed over in bot/app.py, where the tie can be
    seen, never set on the shared services at start for the other to find (and assert)."""
    tree = ast.parse(SOURCES["bot.core.context"].read_text(encoding="utf-8"))
    (services,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Services"]
    assert [ast.unparse(d) for d in services.decorator_list] == ["dataclass(frozen=True)"]
    setters = [
        f"{name}:{node.lineno}"
        for name, path in SOURCES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "services"
    ]
    assert setters == []
