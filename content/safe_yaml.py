"""YAML loading for untrusted banks: plain data only, no anchors or aliases, no duplicate keys,
and a bound on the work one document can cause.

The document is first read as a stream of events (libyaml's C parser where PyYAML has it),
stopping at the first alias, at more than `MAX_NODES` values or at nesting deeper than
`MAX_DEPTH`: the work is bounded before any tree is built. Only then is it loaded.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    NodeEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode

try:  # libyaml's parser: about ten times faster than the pure-Python one
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]

# A value of a valid bank takes at least 3.5 bytes (`yo: a, ` is two), so no valid bank of
# 512 KiB has 150,000 values; a flow list of one-digit items would have 260,000. A bank nests
# five deep: bank, questions, question, options, option.
MAX_NODES = 150_000
MAX_DEPTH = 10
# A bank's numbers are at most 1e400 (content.answers.MAX_EXPONENT): 401 digits. A longer
# integer is refused before it is built: YAML 1.1 reads `1:1:1...` in base 60, which costs
# seconds of CPU for one 340 KB value, and int() refuses more than 4,300 digits by raising.
MAX_NUMBER_LENGTH = 1000
TOO_DEEP = f"the document is nested too deeply (more than {MAX_DEPTH} levels; a bank has 5)"


class BankYamlError(ValueError):
    """The text is not a YAML document a bank can come from; the message says where and why."""


class _StrictLoader(_SafeLoader):
    """The safe loader, refusing duplicate keys, keys that are not plain values, numbers too
    long for a bank, and values it cannot build (a 13th month), each at its place."""

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (yaml.YAMLError, RecursionError):
            raise
        except Exception as error:  # a tag on a value it cannot build: `!!timestamp x`, `!!bool y`
            problem = f"cannot read this value: {error or type(error).__name__}"
            raise ConstructorError(None, None, problem, node.start_mark) from None

    def construct_yaml_int(self, node: ScalarNode) -> int:
        if len(self.construct_scalar(node)) > MAX_NUMBER_LENGTH:
            problem = f"a number of more than {MAX_NUMBER_LENGTH} characters"
            raise ConstructorError(None, None, problem, node.start_mark)
        value: int = super().construct_yaml_int(node)
        return value

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        if not isinstance(node, MappingNode):  # `!!set 0`: a mapping's tag on a plain value
            raise ConstructorError(None, None, "a mapping was expected here", node.start_mark)
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                hash(key)
            except TypeError:
                raise ConstructorError(
                    None, None, "a key must be plain text", key_node.start_mark
                ) from None
            if key in seen:
                raise ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


_StrictLoader.add_constructor("tag:yaml.org,2002:int", _StrictLoader.construct_yaml_int)


def _refuse(problem: str, event: Any) -> BankYamlError:
    mark = event.start_mark
    return BankYamlError(f"line {mark.line + 1}, column {mark.column + 1}: {problem}")


def _check_events(text: str | bytes) -> None:
    """Read the events only, and stop at the first alias or bound passed."""
    loader = _StrictLoader(text)
    nodes = depth = 0
    try:
        while (event := loader.get_event()) is not None:
            if isinstance(event, AliasEvent):
                raise _refuse("anchors and aliases (*name) are not allowed", event)
            if isinstance(event, NodeEvent):
                nodes += 1
                if nodes > MAX_NODES:
                    raise _refuse(f"more than {MAX_NODES} values; a bank has far fewer", event)
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _refuse(TOO_DEEP, event)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    finally:
        loader.dispose()


_collector_lock = threading.Lock()
_collector_pauses = 0
_collector_was_on = False


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector held off while a document is read. Every node of the tree
    stays alive until the end, and each pass of the collector walks them all again: a 512 KiB
    document took 2.7 times as long as half of it, 0.85 s of which half was the collector.
    Reference counting still frees everything else. Counted, so that two threads building at
    once turn it back on once, and only if it was on."""
    global _collector_pauses, _collector_was_on
    with _collector_lock:
        if _collector_pauses == 0:
            _collector_was_on = gc.isenabled()
            gc.disable()
        _collector_pauses += 1
    try:
        yield
    finally:
        with _collector_lock:
            _collector_pauses -= 1
            if _collector_pauses == 0 and _collector_was_on:
                gc.enable()


def load_bank_yaml(text: str | bytes) -> Any:
    """Parse one YAML document into plain Python data, or raise BankYamlError."""
    try:
        with _collector_paused():
            _check_events(text)
            loader = _StrictLoader(text)
            try:
                return loader.get_single_data()
            finally:
                loader.dispose()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = error.problem or error.context or "invalid YAML"
        if "nesting depth" in problem:  # libyaml's own bound, met before ours
            problem = TOO_DEEP
        raise BankYamlError(f"{where}{problem}") from None
    except yaml.YAMLError as error:
        raise BankYamlError(f"invalid YAML: {error}") from None
    except RecursionError:
        raise BankYamlError(TOO_DEEP) from None
    except BankYamlError:
        raise
    except Exception as error:  # a constructor's own failure, outside any node's place
        raise BankYamlError(f"cannot read the document: {error or type(error).__name__}") from None
