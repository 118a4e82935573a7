"""Strict YAML for case files: the little YAML the format needs, and every other construct refused.

PyYAML's ``safe_load`` keeps the last of two duplicate keys, reads ``no`` as ``False`` and ``0x4``,
``04`` or ``+4`` as the number 4, expands aliases (an alias bomb of a few hundred bytes takes
minutes) and recurses on nesting. Here the document is composed under limits first, then checked;
every problem is reported with its position (all of them, not only the first), and only then is the
data built, from nodes the checks have made safe to build:

- no anchors, aliases or tags other than the core ones (``!!str``, ``!!int``, ...), and an explicit
  core tag must agree with its value (``!!int two`` is an error);
- numbers are plain decimals of ASCII digits (``4``, ``-1``, ``2.5``) and short; ``04``, ``0x4``,
  ``+4``, ``4_0``, ``1e3`` or ``²`` are errors, so that one stone has one spelling;
- only ``true``/``false`` are booleans (YAML 1.2): a bare ``yes``/``no``/``on``/``off`` is an error;
- no control characters; at most :data:`MAX_DEPTH` levels of nesting and :data:`MAX_NODES` nodes.

>>> doc = parse_yaml("a: 1\\nb: [red 7, no]\\na: 2\\n", Path("x.yaml"))
>>> for e in doc.errors: print(e)
x.yaml:2:12: b[1]: bare 'no' means true or false to YAML 1.1 (this format has neither): \
write the value this key takes, or quote it ('no') if you mean the word
x.yaml:3:1: a: duplicate key 'a' (first defined on line 1)
>>> doc.data
{'a': 1, 'b': ['red 7', 'no']}
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from schotten.casebook.errors import CaseError, KeyPath

MAX_DEPTH = 16  # a case nests 6 levels deep at most (expect.play_on.held.you[0])
MAX_NODES = 10_000  # a case has a few hundred nodes
MAX_DIGITS = 9  # a number in a case is a stone, a row or a point count

_CORE = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = (f"{_CORE}{t}" for t in ("str", "int", "float", "bool", "null"))
SEQ, MAP = f"{_CORE}seq", f"{_CORE}map"
_SCALAR_TAGS = frozenset({STR, INT, FLOAT, BOOL, NULL})
_TAG_NAMES = {INT: "a whole number", FLOAT: "a decimal number", BOOL: "true or false", NULL: "null"}
_YAML11_BOOLEANS = frozenset({"yes", "no", "on", "off"})
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+")
# What YAML 1.1 would read as a number (PyYAML's resolvers, sexagesimal and all): an error when
# it is not one of the plain spellings above.
_YAML11_NUMBER = re.compile(
    r"[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+"
    r"|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
    r"|\.(?:inf|Inf|INF|nan|NaN|NAN))"
)
# Characters YAML forbids, or that no editor shows: reported where they are, before parsing.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff\ud800-\udfff]")
_MAX_REPORTED = 20  # of one kind of error per file: the rest add nothing


class CaseLoader(yaml.SafeLoader):
    """A SafeLoader with the YAML 1.2 core schema (ASCII decimals, ``true``/``false``, ``null``),
    which refuses anchors and aliases and stops at :data:`MAX_DEPTH` or :data:`MAX_NODES`."""

    # PyYAML reads its resolvers from this class attribute (filled once, below, at import).
    yaml_implicit_resolvers: dict[Any, list[tuple[str, re.Pattern[str]]]] = {}  # noqa: RUF012

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.nodes = 0
        self.explicit: list[tuple[yaml.Node, str]] = []  # nodes whose tag was written

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            raise _refused(f"alias *{event.anchor}: case files use no aliases", event)
        if event.anchor is not None:
            raise _refused(f"anchor &{event.anchor}: case files use no anchors or aliases", event)
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _refused(f"more than {MAX_NODES} values: a case file is far smaller", event)
        if self.depth >= MAX_DEPTH:
            raise _refused(f"nested more than {MAX_DEPTH} levels deep", event)
        tag = getattr(event, "tag", None)
        self.depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self.depth -= 1
        if node is not None and tag is not None and tag != "!":
            self.explicit.append((node, tag))
        return node


class _Refused(yaml.composer.ComposerError):
    """A limit of this reader (an alias, an anchor, too deep, too many values)."""


def _refused(problem: str, event: yaml.Event) -> yaml.MarkedYAMLError:
    return _Refused(None, None, problem, event.start_mark)  # type: ignore[arg-type]


for _tag, _pattern, _first in (
    (NULL, r"~|null|Null|NULL|", ["~", "n", "N", ""]),
    (BOOL, r"true|True|TRUE|false|False|FALSE", list("tTfF")),
    (INT, _INT.pattern, list("-0123456789")),
    (FLOAT, _FLOAT.pattern, list("-0123456789")),
):
    CaseLoader.add_implicit_resolver(_tag, re.compile(rf"^(?:{_pattern})$"), _first)


@dataclass(frozen=True)
class Document:
    """A parsed file: the data (``None`` if unreadable), its node tree, and the problems found."""

    path: Path
    data: Any
    root: yaml.Node | None
    errors: tuple[CaseError, ...] = field(default=())
    text: str = field(default="", repr=False, compare=False)  # what was parsed
    # For each mapping node (by id), its entries by key text: locating is a look-up, not a scan.
    keys: Mapping[int, Mapping[str, tuple[yaml.Node, yaml.Node]]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def locate(self, key_path: KeyPath, *, key: bool = False) -> tuple[int, int]:
        """Line and column (from 1) of the value at ``key_path``, or of its key if ``key``.

        A path that does not exist in the file points at its deepest existing parent.
        """
        if self.root is None:
            return 1, 1
        node = find_node(self.root, key_path, key=key, keys=self.keys)
        return node.start_mark.line + 1, node.start_mark.column + 1

    def error(self, key_path: KeyPath, message: str, *, key: bool = False) -> CaseError:
        """A problem at ``key_path`` (at its key if ``key``), located as :meth:`locate` does."""
        line, column = self.locate(key_path, key=key)
        return CaseError(self.path, line, column, key_path, clip(message))


def clip(message: str, limit: int = 400) -> str:
    """A message that quotes a huge value keeps its start and its end (what was expected)."""
    if len(message) <= limit:
        return message
    return message[: limit // 2] + " … " + message[-(limit // 2) :]


def parse_yaml(text: str, path: Path) -> Document:
    """Compose, check and construct one case file; never raises on bad input."""
    controls = list(_control_characters(text, path))
    if controls:
        return Document(path, None, None, tuple(controls), text)
    loader = CaseLoader(text)
    loader.name = str(path)
    try:
        root = loader.get_single_node()
        if root is None:
            return Document(
                path, None, None, (CaseError(path, 1, 1, (), "the file is empty"),), text
            )
        keys: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] = {}
        errors = list(_check_tags(loader, path))
        tagged = {id(node) for node, _tag in loader.explicit}
        errors += _check_nodes(root, (), path, keys, tagged)
        data = loader.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        # Unreadable YAML, or a limit reached while composing: one error, here.
        message, mark = syntax_message(exc)
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return Document(path, None, None, (CaseError(path, line, column, (), message),), text)
    except yaml.YAMLError as exc:  # pragma: no cover - the reader's errors are found above
        return Document(path, None, None, (CaseError(path, 1, 1, (), str(exc)),), text)
    finally:
        loader.dispose()
    errors.sort(key=lambda e: (e.line, e.column))
    return Document(path, data, root, tuple(errors), text, keys)


def syntax_message(exc: yaml.MarkedYAMLError) -> tuple[str, yaml.Mark | None]:
    """What a YAML syntax error means for a case file, with its fix, and where to point at.

    PyYAML describes its parser's state ("mapping values are not allowed here"); an editor needs
    the mistake that leads there and what to type instead.
    """
    context, problem = str(exc.context or ""), str(exc.problem or "")
    mark = exc.problem_mark or exc.context_mark
    if exc.context is None and exc.problem_mark is not None and isinstance(exc, _Refused):
        return problem, mark  # a limit of this reader: already in plain words
    if problem.startswith("mapping values are not allowed"):
        return (
            'a ": " inside a text or a move, which YAML reads as a new key: put the whole text '
            'in double quotes ("...")',
            mark,
        )
    if "'\\t'" in problem or "\t" in problem:
        return "a tab: YAML indents with spaces only (two per level): replace the tab", mark
    if context.startswith("while scanning a quoted scalar"):
        return (
            "this quote is never closed: end the text with the same quote, and write a quote "
            'inside a double-quoted text as \\"',
            exc.context_mark or mark,
        )
    if context.startswith("while parsing a block mapping") and "'<scalar>'" in problem:
        return (
            "text after a closing quote: quote the whole text, from its first character to its "
            'last ("Borne 5 ..."), with \\" for a quote inside it',
            mark,
        )
    if context.startswith("while parsing a flow"):
        return (
            "a list [...] or {...} is not closed, or two of its items lack a comma between them; "
            "a text that holds a comma, a bracket or a colon goes in double quotes",
            mark,
        )
    if context.startswith("while parsing a block") or "indent" in problem:
        return (
            "the indentation does not line up: indent with spaces, two per level, and keep the "
            "keys of one level in one column",
            mark,
        )
    words = " ".join(p for p in (context, problem) if p)
    return f"this is not readable YAML ({words})", mark


def _control_characters(text: str, path: Path) -> Iterator[CaseError]:
    for count, match in enumerate(_CONTROL.finditer(text)):
        if count == _MAX_REPORTED:
            return
        start = match.start()
        line = text.count("\n", 0, start) + 1
        column = start - (text.rfind("\n", 0, start) + 1) + 1
        code = f"U+{ord(match.group()):04X}"
        yield CaseError(
            path, line, column, (), f"control character {code}: case files hold plain text only"
        )


def find_node(
    root: yaml.Node,
    key_path: KeyPath,
    *,
    key: bool = False,
    keys: Mapping[int, Mapping[str, tuple[yaml.Node, yaml.Node]]] | None = None,
) -> yaml.Node:
    """The node at ``key_path`` (its key node if ``key``), else the deepest existing parent."""
    node = root
    for position, step in enumerate(key_path):
        last = position == len(key_path) - 1
        if isinstance(node, yaml.MappingNode):
            entries = keys.get(id(node)) if keys is not None else None
            if entries is not None:
                match = entries.get(str(step))
            else:
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


def _check_tags(loader: CaseLoader, path: Path) -> Iterator[CaseError]:
    """Written tags: core ones only, agreeing with their value; each bad one is made a string so
    that building the data cannot fail."""
    for node, tag in loader.explicit:
        scalar = isinstance(node, yaml.ScalarNode)
        plain = STR if scalar else SEQ if isinstance(node, yaml.SequenceNode) else MAP
        problem = None
        if tag not in {*_SCALAR_TAGS, SEQ, MAP}:
            problem = f"tag {_short_tag(tag)}: case files use no tags (write the value plainly)"
        elif scalar != (tag in _SCALAR_TAGS) or (not scalar and tag != plain):
            problem = f"tag {_short_tag(tag)} does not fit this value"
        elif scalar and tag != STR:
            resolved = loader.resolve(  # type: ignore[no-untyped-call]
                yaml.ScalarNode, node.value, (True, False)
            )
            if resolved != tag:
                problem = f"{_short(node.value)} is not {_TAG_NAMES[tag]} (tag {_short_tag(tag)})"
        if problem is not None:
            node.tag = plain
            yield _at_node(path, node, (), problem)


def _check_nodes(
    node: yaml.Node,
    key_path: KeyPath,
    path: Path,
    keys: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]],
    tagged: set[int],
) -> list[CaseError]:
    errors: list[CaseError] = []
    # Depth-first with a stack: the composer has already bounded the depth, but not the width.
    stack: list[tuple[yaml.Node, KeyPath]] = [(node, key_path)]
    while stack:
        node, key_path = stack.pop()
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, tuple[yaml.Node, yaml.Node]] = {}
            children = []
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in (STR, INT):
                    errors.append(
                        _at_node(path, key_node, key_path, "a key is a name or a stone number")
                    )
                    continue
                name = _key_text(key_node)
                step = _path_step(key_node)
                errors += _check_scalar(key_node, key_path, path, tagged)
                if name in seen:
                    first = seen[name][0].start_mark.line + 1
                    errors.append(
                        _at_node(
                            path,
                            key_node,
                            (*key_path, step),
                            f"duplicate key {name!r} (first defined on line {first})",
                        )
                    )
                    continue  # the first one stands; the file is invalid anyway
                seen[name] = (key_node, value_node)
                children.append((value_node, (*key_path, step)))
            node.value = list(seen.values())
            keys[id(node)] = seen
            stack += reversed(children)
        elif isinstance(node, yaml.SequenceNode):
            stack += reversed([(item, (*key_path, i)) for i, item in enumerate(node.value)])
        else:
            errors += _check_scalar(node, key_path, path, tagged)
    return errors


def _check_scalar(
    node: yaml.Node, key_path: KeyPath, path: Path, tagged: set[int]
) -> list[CaseError]:
    # Quoted or explicitly tagged text is what it says: only plain scalars are looked at.
    if not isinstance(node, yaml.ScalarNode) or node.style is not None or id(node) in tagged:
        return []
    value = node.value
    problem = None
    if value.lower() in _YAML11_BOOLEANS:
        problem = (
            f"bare {value!r} means true or false to YAML 1.1 (this format has neither): write "
            f"the value this key takes, or quote it ('{value}') if you mean the word"
        )
    elif node.tag in (INT, FLOAT) and len(value.lstrip("-").replace(".", "")) > MAX_DIGITS:
        problem = f"a number of {len(value)} characters: numbers in a case are small"
    elif node.tag == STR and _foreign_digits(value):
        problem = f"{_short(value)}: write numbers with the digits 0-9"
    elif node.tag == STR and _YAML11_NUMBER.fullmatch(value):
        problem = (
            f"{_short(value)}: write numbers in plain decimal ({_plain_hint(value)}), "
            "or quote the text"
        )
    if problem is None:
        return []
    node.tag = STR  # built as text, whatever it looked like
    return [_at_node(path, node, key_path, problem)]


def _plain_hint(value: str) -> str:
    text = value.replace("_", "")
    for read in (lambda t: int(t, 0), float):
        try:
            number = float(read(text))
        except (ValueError, OverflowError):
            continue
        if number.is_integer() and abs(number) < 10**MAX_DIGITS:
            return str(int(number))
        break
    return "e.g. 4"


def _foreign_digits(value: str) -> bool:
    """A number written with other digits than 0-9: ``²``, ``٤``, ``４``."""
    digits = [c for c in value if c.isdigit()]
    numeric = all(c.isdigit() or c in "+-.," for c in value)
    return numeric and bool(digits) and not all(c.isascii() for c in digits)


def _at_node(path: Path, node: yaml.Node, key_path: KeyPath, message: str) -> CaseError:
    mark = node.start_mark
    return CaseError(path, mark.line + 1, mark.column + 1, key_path, message)


def _short(value: str, limit: int = 40) -> str:
    return repr(value if len(value) <= limit else value[:limit] + "…")


def _short_tag(tag: str) -> str:
    return "!!" + tag.removeprefix(_CORE) if tag.startswith(_CORE) else _short(tag, 30)[1:-1]


def _key_text(node: yaml.Node) -> str:
    return str(node.value) if isinstance(node, yaml.ScalarNode) else repr(node.value)


def _path_step(node: yaml.Node) -> str | int:
    text = _key_text(node)
    return int(text) if is_ascii_number(text) else text


def is_ascii_number(text: str) -> bool:
    """``True`` for a short run of ASCII digits (``"4"``; not ``"²"``, ``"٤"`` or 5,000 digits)."""
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()
