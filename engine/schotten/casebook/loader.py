"""Strict YAML for case files: safe, no duplicate keys, no YAML 1.1 ``yes``/``no`` booleans.

PyYAML's ``safe_load`` keeps the last of two duplicate keys and reads ``no`` as ``False``. Here
the document is composed first; every duplicate key and every bare ``yes``/``no``/``on``/``off`` is
reported with its position (all of them, not only the first), and only then is the data built.

>>> doc = parse_yaml("a: 1\\nb: [red 7, no]\\na: 2\\n", Path("x.yaml"))
>>> for e in doc.errors: print(e)
x.yaml:2:12: b[1]: bare 'no' is a YAML 1.1 boolean: write true or false, or quote it ('no')
x.yaml:3:1: a: duplicate key 'a' (first defined on line 1)
>>> doc.data
{'a': 1, 'b': ['red 7', 'no']}
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from schotten.casebook.errors import CaseError, KeyPath

_BOOL_TAG = "tag:yaml.org,2002:bool"
_YAML11_BOOLEANS = frozenset({"yes", "no", "on", "off"})


class CaseLoader(yaml.SafeLoader):
    """A SafeLoader where only ``true``/``false`` are booleans (YAML 1.2 core schema)."""

    # PyYAML reads its resolvers from this class attribute (it is never mutated after import).
    yaml_implicit_resolvers = {  # noqa: RUF012
        first: [(tag, rx) for tag, rx in resolvers if tag != _BOOL_TAG]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


CaseLoader.add_implicit_resolver(
    _BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


@dataclass(frozen=True)
class Document:
    """A parsed file: the data (``None`` if unreadable), its node tree, and the problems found."""

    path: Path
    data: Any
    root: yaml.Node | None
    errors: tuple[CaseError, ...] = field(default=())

    def locate(self, key_path: KeyPath, *, key: bool = False) -> tuple[int, int]:
        """Line and column (from 1) of the value at ``key_path``, or of its key if ``key``.

        A path that does not exist in the file points at its deepest existing parent.
        """
        if self.root is None:
            return 1, 1
        node = find_node(self.root, key_path, key=key)
        return node.start_mark.line + 1, node.start_mark.column + 1


def parse_yaml(text: str, path: Path) -> Document:
    """Compose, check and construct one case file; never raises on bad input."""
    loader = CaseLoader(text)
    loader.name = str(path)
    try:
        root = loader.get_single_node()
        if root is None:
            return Document(path, None, None, (CaseError(path, 1, 1, (), "the file is empty"),))
        errors = list(_check_nodes(root, (), path))
        data = loader.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        # Unreadable YAML, or a tag the safe loader refuses (``!!python/...``): one error, here.
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        return Document(path, None, None, (CaseError(path, line, column, (), message),))
    finally:
        loader.dispose()
    return Document(path, data, root, tuple(errors))


def find_node(root: yaml.Node, key_path: KeyPath, *, key: bool = False) -> yaml.Node:
    """The node at ``key_path`` (its key node if ``key``), else the deepest existing parent."""
    node = root
    for position, step in enumerate(key_path):
        last = position == len(key_path) - 1
        if isinstance(node, yaml.MappingNode):
            match = next((kv for kv in node.value if _key_text(kv[0]) == str(step)), None)
            if match is None:
                return node
            node = match[0] if key and last else match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            if not 0 <= step < len(node.value):
                return node
            node = node.value[step]
        else:
            return node
    return node


def mapping_entries(node: yaml.Node) -> Iterator[tuple[yaml.Node, yaml.Node]]:
    if isinstance(node, yaml.MappingNode):
        yield from node.value


def _check_nodes(node: yaml.Node, key_path: KeyPath, path: Path) -> Iterator[CaseError]:
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        kept = []
        for key_node, value_node in node.value:
            name = _key_text(key_node)
            step = _path_step(key_node)
            yield from _check_scalar(key_node, key_path, path)
            if name in seen:
                mark = key_node.start_mark
                yield CaseError(
                    path,
                    mark.line + 1,
                    mark.column + 1,
                    (*key_path, step),
                    f"duplicate key {name!r} (first defined on line {seen[name]})",
                )
                continue  # the first one stands; the file is invalid anyway
            seen[name] = key_node.start_mark.line + 1
            kept.append((key_node, value_node))
            yield from _check_nodes(value_node, (*key_path, step), path)
        node.value = kept
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _check_nodes(item, (*key_path, i), path)
    else:
        yield from _check_scalar(node, key_path, path)


def _check_scalar(node: yaml.Node, key_path: KeyPath, path: Path) -> Iterator[CaseError]:
    if (
        isinstance(node, yaml.ScalarNode)
        and node.style is None
        and node.value.lower() in _YAML11_BOOLEANS
    ):
        mark = node.start_mark
        yield CaseError(
            path,
            mark.line + 1,
            mark.column + 1,
            key_path,
            f"bare {node.value!r} is a YAML 1.1 boolean: write true or false, "
            f"or quote it ('{node.value}')",
        )


def _key_text(node: yaml.Node) -> str:
    return str(node.value) if isinstance(node, yaml.ScalarNode) else repr(node.value)


def _path_step(node: yaml.Node) -> str | int:
    text = _key_text(node)
    return int(text) if text.isdigit() else text
