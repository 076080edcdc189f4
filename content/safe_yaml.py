"""YAML loading for untrusted banks: plain data only, no anchors or aliases, no duplicate keys."""

from __future__ import annotations

from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node


class BankYamlError(ValueError):
    """The text is not a YAML document a bank can come from; the message says where and why."""


class _StrictSafeLoader(yaml.SafeLoader):
    """SafeLoader that refuses aliases (the root of "billion laughs" bombs) and duplicate keys."""

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if self.check_event(AliasEvent):
            event = self.peek_event()
            raise ConstructorError(
                None, None, "anchors and aliases (*name) are not allowed", event.start_mark
            )
        return super().compose_node(parent, index)

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
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


def load_bank_yaml(text: str | bytes) -> Any:
    """Parse one YAML document into plain Python data, or raise BankYamlError."""
    try:
        return yaml.load(text, Loader=_StrictSafeLoader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = error.problem or error.context or "invalid YAML"
        raise BankYamlError(f"{where}{problem}") from None
    except yaml.YAMLError as error:
        raise BankYamlError(f"invalid YAML: {error}") from None
    except RecursionError:
        raise BankYamlError("the document is nested too deeply") from None
