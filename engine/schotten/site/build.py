"""The publishing gate and the page renderer, independent of MkDocs.

:func:`prepare` does everything that can refuse a publication, before a single file is written:

- it loads every case file (an invalid file is an error, with its file and line) and replays each
  one through the engine; a verdict, reason or witness that differs from the recorded one is an
  error naming the case file and line, recorded against computed;
- it checks that both languages are there: every page exists as ``name.md`` (French) and
  ``name.es.md`` (Spanish), every published case has its texts in both, both label catalogues
  have the same keys;
- it renders every page of both languages as a Jinja2 template (``StrictUndefined``), so that a
  false example, a missing function or a label missing in one language fails here too.

It returns the rendered Markdown of every page; the MkDocs hook only hands it over. All problems are
reported together in one :class:`~schotten.site.SiteCheckError`.

The result depends only on the files it reads: :func:`fingerprint` hashes them, and the hook keeps
the last result by fingerprint (MkDocs runs the build once per language, and ``mkdocs serve``
rebuilds after each edit).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

import schotten
from schotten._files import InputFileError, file_kind, read_text
from schotten.board import Player
from schotten.site import (
    LANGUAGES,
    SiteCheckError,
    faq,
    labels,
    proofs,
    questions,
    verified,
    widgets,
)
from schotten.typography import spacing_faults

DEFAULT_LANGUAGE = LANGUAGES[0]
_MAX_HASHED_BYTES = 4 * 1024 * 1024  # a page or a case is far smaller
_SUFFIX = re.compile(r"^(?P<stem>.+?)(?:\.(?P<lang>[a-z]{2}))?\.md$")


@dataclass(frozen=True)
class Prepared:
    """What the gate let through: the rendered pages and the published cases."""

    fingerprint: str
    sources: Mapping[str, str]  # source path relative to docs_dir -> the page as read
    pages: Mapping[str, str]  # source path relative to docs_dir (``rules.es.md``) -> Markdown
    entries: tuple[faq.FaqEntry, ...]

    def source(self, src_uri: str) -> str:
        """The page's source as the gate read it (the build reads no page file itself)."""
        return self._get(self.sources, src_uri)

    def page(self, src_uri: str) -> str:
        return self._get(self.pages, src_uri)

    @staticmethod
    def _get(texts: Mapping[str, str], src_uri: str) -> str:
        try:
            return texts[src_uri]
        except KeyError:
            raise SiteCheckError(f"{src_uri}: page was not checked before the build") from None


def page_language(src_uri: str) -> str:
    """The language of a page source by its suffix: ``rules.es.md`` is Spanish, ``rules.md`` French.

    >>> page_language("rules.md"), page_language("rules.es.md"), page_language("a/b.fr.md")
    ('fr', 'es', 'fr')
    """
    match = _SUFFIX.match(Path(src_uri).name)
    if match is None:
        raise SiteCheckError(f"{src_uri}: not a Markdown page")
    return match["lang"] or DEFAULT_LANGUAGE


def page_stem(src_uri: str) -> str:
    """The page without its language: ``rules.es.md`` and ``rules.md`` are both ``rules``."""
    path = Path(src_uri)
    match = _SUFFIX.match(path.name)
    if match is None:
        raise SiteCheckError(f"{src_uri}: not a Markdown page")
    return str(path.with_name(match["stem"]))


def fingerprint(docs_dir: Path, cases_dir: Path) -> str:
    """A hash of every file the gate reads: pages, cases, the engine and its labels."""
    digest = hashlib.sha256()
    engine = Path(schotten.__file__).parent
    # Every entry of the case folder counts (a stray file or the lock changes the verdict).
    case_entries = sorted(cases_dir.iterdir()) if cases_dir.is_dir() else []
    sources = [
        *_files(docs_dir, "*.md"),
        *case_entries,
        *_files(engine, "*.py"),
        *_files(engine, "*.json"),
        *_files(engine, "*.j2"),
    ]
    for path in sources:
        digest.update(str(path).encode())
        digest.update(b"\0")
        digest.update(_content_key(path))
        digest.update(b"\0")
    return digest.hexdigest()


def _content_key(path: Path) -> bytes:
    """What identifies a file's content here, read only when it is a small regular file (the gate
    itself reports anything else, with its name, after this)."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_HASHED_BYTES:
            return f"{info.st_mode} {info.st_size} {info.st_mtime_ns}".encode()
        return path.read_bytes()
    except OSError as exc:
        return f"unreadable: {exc.strerror}".encode()


def read_page(path: Path, display_root: Path | None = None) -> str:
    """A page's source, or :class:`SiteCheckError` naming it (unreadable, not UTF-8, too large,
    not a regular file)."""
    try:
        return read_text(path, _MAX_HASHED_BYTES)
    except InputFileError as exc:
        shown = _show(path, display_root)
        raise SiteCheckError(f"{shown}:{exc.line}:{exc.column}: {exc.problem}") from exc


def special_file_problems(docs_dir: Path, display_root: Path | None = None) -> list[str]:
    """Entries of the page folder that are neither regular files nor folders (a FIFO, a device,
    a socket, a link to one of those or to nothing): MkDocs would read or copy each of them and
    wait, or read without end. Hidden entries are not the site's (MkDocs leaves them out)."""
    problems = []
    for folder, dirs, names in os.walk(docs_dir):
        dirs[:] = sorted(d for d in dirs if not _hidden(d))
        for entry in sorted([*dirs, *names]):
            path = Path(folder) / entry
            if _hidden(entry):
                continue
            shown = f"{_show(Path(folder), display_root)}/{entry}"  # the entry, not its target
            try:
                mode = path.stat().st_mode
            except OSError as exc:
                problem = "a link to nothing" if path.is_symlink() else f"unreadable: {exc}"
                problems.append(f"{shown}: {problem}: move it out of the site")
                continue
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                problems.append(
                    f"{shown}: {file_kind(mode)}, not a regular file: "
                    "only plain files go into the site; move it out"
                )
    return problems


def _hidden(name: str) -> bool:
    return name.startswith(".") or name == "__pycache__"


def prepare(
    docs_dir: Path,
    cases_dir: Path,
    *,
    nav: Sequence[str] = (),
    display_root: Path | None = None,
) -> Prepared:
    """Check cases, languages and pages; render every page. Raise with every problem found.

    ``nav`` lists the pages the navigation leads to (``rules.md``): each must exist in every
    language. ``display_root`` is the folder paths in messages are relative to (default: cwd).
    """
    problems: list[str] = []
    places: dict[str, str] = {}
    entries = _published_entries(cases_dir, problems, display_root, places)
    problems += label_problems()
    problems += label_spacing_problems()
    problems += special_file_problems(docs_dir, display_root)
    pages = _page_sources(docs_dir)
    problems += language_problems(pages, docs_dir, display_root)
    problems += nav_problems(nav, pages, docs_dir, display_root)
    sources: dict[str, str] = {}
    rendered: dict[str, str] = {}
    shown: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    if not problems:
        for src_uri, path in pages.items():
            lang = page_language(src_uri)
            try:
                sources[src_uri] = read_page(path, display_root)
                rendered[src_uri] = render_page(
                    sources[src_uri], lang, _show(path, display_root), entries, shown[lang]
                )
            except SiteCheckError as exc:
                problems.append(str(exc))
        problems += table_problems(entries, shown, places)
    if problems:
        raise SiteCheckError(
            "refusing to publish the site:\n" + "\n".join(f"  {p}" for p in problems)
        )
    return Prepared(fingerprint(docs_dir, cases_dir), sources, rendered, entries)


def render_page(
    source: str,
    lang: str,
    name: str,
    entries: Sequence[faq.FaqEntry],
    shown: set[str] | None = None,
) -> str:
    """One page's Markdown, rendered as a Jinja2 template with the page functions of ``lang``
    (``shown`` collects the published tables the page renders).

    A page is Markdown and calls of page functions with plain values (``{{ example("blue 5,
    blue 6, blue 7", "colour-run") }}``), nothing else: it includes, imports or extends no other
    template, defines no macro, loops over nothing, computes nothing, and prints nothing but
    what page functions return. Anything else, and any error while rendering, is a
    :class:`~schotten.site.SiteCheckError` with the page's name and line."""
    functions = page_functions(lang, entries, shown)
    env = jinja2.Environment(
        undefined=jinja2.StrictUndefined,
        # Every function returns Markup; anything else printed on a page is escaped.
        autoescape=True,
        keep_trailing_newline=True,
        finalize=_printable,
    )
    env.globals.clear()  # range, dict, lipsum, ...: a page calls page functions only
    try:
        tree = env.parse(source, name, name)
        _check_page(tree, functions)
        # Named after the page, so that errors point into the page.
        code = env.compile(tree, name, name)
        template = env.template_class.from_code(env, code, env.make_globals(None))
        return template.render(functions)
    except jinja2.TemplateSyntaxError as exc:
        raise SiteCheckError(f"{name}:{exc.lineno}: ({lang}) {exc.message}") from exc
    except _PageError as exc:
        raise SiteCheckError(f"{name}:{exc.line}: ({lang}) {exc.message}") from exc
    except Exception as exc:  # the page's own doing: say where, never a traceback
        line = _template_line(exc, name)
        where = f"{name}:{line}" if line else name
        raise SiteCheckError(f"{where}: ({lang}) {_said(exc)}") from exc


class _PageError(Exception):
    """What a page holds that pages may not (only inside this module)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


_TAGS: dict[type[jinja2.nodes.Node], str] = {
    jinja2.nodes.Include: "include",
    jinja2.nodes.Import: "import",
    jinja2.nodes.FromImport: "from ... import",
    jinja2.nodes.Extends: "extends",
    jinja2.nodes.Macro: "macro",
    jinja2.nodes.CallBlock: "call",
    jinja2.nodes.Block: "block",
    jinja2.nodes.For: "for",
    jinja2.nodes.If: "if",
    jinja2.nodes.Assign: "set",
    jinja2.nodes.AssignBlock: "set",
    jinja2.nodes.FilterBlock: "filter",
    jinja2.nodes.With: "with",
}
_HOW = "a page holds Markdown and calls of page functions, {{ example(...) }}, only"
# Page functions that take a block of the page's own Markdown, as {% call f() %}...{% endcall %}.
_BLOCK_FUNCTIONS = frozenset({"questions"})


def _check_page(tree: jinja2.nodes.Template, functions: Mapping[str, Any]) -> None:
    _check_body(tree.body, functions, inside_block=False)


def _check_body(
    body: list[jinja2.nodes.Node], functions: Mapping[str, Any], *, inside_block: bool
) -> None:
    for node in body:
        if isinstance(node, jinja2.nodes.CallBlock) and not inside_block:
            _check_block(node, functions)
            continue
        if not isinstance(node, jinja2.nodes.Output):
            tag = _TAGS.get(type(node), type(node).__name__.lower())
            raise _PageError(node.lineno, f"{{% {tag} %}} is not allowed here: {_HOW}")
        for child in node.nodes:
            if not isinstance(child, jinja2.nodes.TemplateData):
                _check_call(child, functions)


def _check_block(node: jinja2.nodes.CallBlock, functions: Mapping[str, Any]) -> None:
    call = node.call
    name = call.node.name if isinstance(call.node, jinja2.nodes.Name) else ""
    blocks = ", ".join(sorted(_BLOCK_FUNCTIONS))
    if name not in _BLOCK_FUNCTIONS or name not in functions:
        raise _PageError(
            node.lineno, f"{{% call %}} takes a block page function ({blocks}) only: {_HOW}"
        )
    if call.args or call.kwargs or call.dyn_args or call.dyn_kwargs or node.args:
        raise _PageError(node.lineno, f"{{% call {name}() %}} takes no arguments")
    _check_body(node.body, functions, inside_block=True)


def _check_call(node: jinja2.nodes.Node, functions: Mapping[str, Any]) -> None:
    if isinstance(node, jinja2.nodes.Name) and node.name not in functions:
        raise _PageError(node.lineno, f"{node.name!r} is not a page function: {_HOW}")
    if isinstance(node, jinja2.nodes.Name):
        raise _PageError(
            node.lineno,
            f"{{{{ {node.name} }}}} prints the page function itself: call it, "
            f"{{{{ {node.name}(...) }}}}",
        )
    if not isinstance(node, jinja2.nodes.Call) or not isinstance(node.node, jinja2.nodes.Name):
        raise _PageError(node.lineno, f"{{{{ ... }}}} computes something: {_HOW}")
    called = node.node.name
    if called not in functions:
        known = ", ".join(sorted(functions))
        raise _PageError(node.lineno, f"{called!r} is not a page function (they are: {known})")
    values = [*node.args, *(k.value for k in node.kwargs)]
    if node.dyn_args is not None or node.dyn_kwargs is not None or not all(map(_plain, values)):
        raise _PageError(
            node.lineno,
            f"{called}(...) takes plain values only: text, numbers, true or false, lists and "
            "mappings of them",
        )


def _plain(node: jinja2.nodes.Node) -> bool:
    if isinstance(node, jinja2.nodes.Const):
        return node.value is None or isinstance(node.value, str | int | float)
    if isinstance(node, jinja2.nodes.Neg | jinja2.nodes.Pos):
        return isinstance(node.node, jinja2.nodes.Const) and isinstance(
            node.node.value, int | float
        )
    if isinstance(node, jinja2.nodes.List | jinja2.nodes.Tuple):
        return all(_plain(item) for item in node.items)
    if isinstance(node, jinja2.nodes.Dict):
        return all(_plain(pair.key) and _plain(pair.value) for pair in node.items)
    return False


def _printable(value: Any) -> Any:
    """What a page prints: text only (page functions return it as Markup)."""
    if not isinstance(value, str):
        raise SiteCheckError(f"the page prints {type(value).__name__} {value!r}, not text")
    return value


def _said(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "a call that never ends (it calls itself again and again)"
    if isinstance(exc, SiteCheckError | jinja2.TemplateError) and str(exc):
        return str(exc)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def page_functions(
    lang: str, entries: Sequence[faq.FaqEntry], shown: set[str] | None = None
) -> dict[str, Callable[..., Markup]]:
    """The functions pages may call in ``lang``: the FAQ's own and those of the other modules."""
    tables = shown if shown is not None else set()

    def table(name: str = faq.FAQ) -> Markup:
        tables.add(name)
        return faq.verdict_table(entries, lang, name)

    functions: dict[str, Callable[..., Markup]] = {
        "verdict_table": table,
        "cases_for": partial(faq.cases_for, entries, lang),
    }
    for module in (verified, widgets, proofs, questions):
        for fname, function in module.jinja_functions(lang).items():
            if fname in functions:
                raise SiteCheckError(f"{module.__name__}: page function {fname!r} is defined twice")
            functions[fname] = _trusted(function, fname)
    return functions


def table_problems(
    entries: Sequence[faq.FaqEntry],
    shown: Mapping[str, set[str]],
    places: Mapping[str, str] | None = None,
) -> list[str]:
    """Published tables that a language's pages never show (``places``: the file and line of a
    case that publishes each table, named first, with the table most likely meant)."""
    from schotten.casebook.hints import suggest_word

    published = sorted({e.table for e in entries})
    problems = []
    for lang in LANGUAGES:
        for table in published:
            if table in shown.get(lang, set()):
                continue
            problem = (
                f"published table {table!r} is on no page in {lang} (call verdict_table({table!r}))"
            )
            if places and table in places:
                meant = suggest_word(table, sorted(shown.get(lang, set())))
                hint = f": did you mean {meant!r}?" if meant is not None else ""
                problem = f"{places[table]}: published.table: {problem}{hint}"
            problems.append(problem)
    return problems


def label_problems() -> list[str]:
    """Keys present in one language's labels and missing in another's."""
    keysets = {lang: set(_leaf_keys(labels(lang))) for lang in LANGUAGES}
    problems = []
    for lang, keys in keysets.items():
        for other, other_keys in keysets.items():
            for key in sorted(other_keys - keys):
                problems.append(
                    f"schotten/locales/{lang}.json: label {key} is missing "
                    f"(it exists in {other}.json)"
                )
    return problems


def label_spacing_problems() -> list[str]:
    """French labels that break French spacing (``Borne 4 : Refusée`` with an ordinary space)."""
    return [
        f"schotten/locales/fr.json: label {key}: {fault}"
        for key, text in _leaf_items(labels("fr"))
        for fault in spacing_faults(str(text))
    ]


def language_problems(
    pages: Mapping[str, Path], docs_dir: Path, display_root: Path | None = None
) -> list[str]:
    """Pages that exist in one language and not in the other."""
    by_stem: dict[str, set[str]] = {}
    for src_uri in pages:
        by_stem.setdefault(page_stem(src_uri), set()).add(page_language(src_uri))
    problems = []
    for stem, langs in sorted(by_stem.items()):
        for lang in LANGUAGES:
            if lang not in langs:
                suffix = "" if lang == DEFAULT_LANGUAGE else f".{lang}"
                missing = _show(docs_dir / f"{stem}{suffix}.md", display_root)
                problems.append(
                    f"{missing}: page missing in {lang} (every page exists in "
                    f"{' and '.join(LANGUAGES)})"
                )
    unknown = sorted(u for u in pages if page_language(u) not in LANGUAGES)
    problems += [f"{_show(pages[u], display_root)}: no such site language" for u in unknown]
    return problems


def nav_problems(
    nav: Sequence[str], pages: Mapping[str, Path], docs_dir: Path, display_root: Path | None = None
) -> list[str]:
    """Pages the navigation leads to that exist in no language (:func:`language_problems`
    reports those missing in one)."""
    problems = []
    stems = {page_stem(uri) for uri in pages}
    for uri in nav:
        stem = page_stem(uri)
        if stem in stems:
            continue
        for lang in LANGUAGES:
            suffix = "" if lang == DEFAULT_LANGUAGE else f".{lang}"
            name = f"{stem}{suffix}.md"
            if name not in pages:
                problems.append(
                    f"{_show(docs_dir / name, display_root)}: page in the navigation is missing "
                    f"in {lang}"
                )
    return problems


def _published_entries(
    cases_dir: Path,
    problems: list[str],
    display_root: Path | None,
    places: dict[str, str] | None = None,
) -> tuple[faq.FaqEntry, ...]:
    from schotten.casebook import CaseFileError, load_folder
    from schotten.casebook.run import run_case

    try:
        cases, errors = load_folder(cases_dir)
    except CaseFileError as exc:  # the folder itself cannot be listed
        cases, errors = [], list(exc.errors)
    problems += [
        f"invalid case file: {_show(Path(e.path), display_root)}:{e.line}:{e.column}: {e.detail}"
        for e in errors
    ]
    # The valid cases are still replayed, so that every changed verdict is reported too.
    entries: list[faq.FaqEntry] = []
    for case in cases:
        result = run_case(case)
        problems += mismatch_lines(result, display_root)
        if case.published is None:
            continue
        if places is not None:
            line = case.line_of("published", "table")
            places.setdefault(case.published.table, f"{_show(case.path, display_root)}:{line}")
        played = result.computed.play_on
        entry = faq.FaqEntry(
            id=case.id,
            row=case.published.row,
            situation=case.situation,
            why=case.why,
            board=case.board,
            claim=tuple(case.claim),
            verdicts=tuple(result.verdicts),
            hand=tuple(case.hands[Player.FIRST]),
            table=case.published.table,
            moves=case.play_on.moves if case.play_on is not None else (),
            play=played,
            rules=tuple(str(rule) for rule in case.rules),
        )
        problems += faq.check_entry_languages(entry, _show(case.path, display_root))
        if not entry.verdicts and played is None:
            problems.append(
                f"{_show(case.path, display_root)}: a published case claims a stone or plays on"
            )
        entries.append(entry)
    return tuple(entries)


def mismatch_lines(result: Any, display_root: Path | None = None) -> list[str]:
    """One line per claimed stone whose verdict changed, recorded against computed, then one per
    other recorded value that changed (``result`` is a :class:`schotten.casebook.CaseResult`).

    ``cases/x.yaml:31: stone 4 recorded refused (opponent-can-beat), engine now granted
    (unbeatable)``
    """
    case = result.case
    where = _show(Path(case.path), display_root)
    recorded = {s.stone: s for s in (case.expect.stones if case.expect else ())}
    computed = {s.stone: s for s in result.computed.stones}
    lines: list[str] = []
    stones_done: set[int] = set()
    for m in result.mismatches:
        parts = m.what.split(".")
        if len(parts) >= 3 and parts[:2] == ["expect", "stones"] and parts[2].isdigit():
            number = int(parts[2])
            if number in stones_done:
                continue
            stones_done.add(number)
            line = case.line_of("expect", "stones", number)
            lines.append(
                f"{where}:{line}: stone {number} recorded {_stone_text(recorded.get(number))}, "
                f"engine now {_stone_text(computed.get(number))}"
            )
        else:
            lines.append(
                f"{where}:{m.line}: {m.what} recorded {m.recorded}, engine now {m.computed}"
            )
    return lines


def _stone_text(stone: Any) -> str:
    if stone is None:
        return "nothing"
    text = f"{stone.verdict} ({stone.reason}"
    if stone.witness is not None:
        cards = ", ".join(str(c) for c in stone.witness.cards)
        text += f"; witness {cards} making {stone.witness.formation}"
    return text + ")"


def _page_sources(docs_dir: Path) -> dict[str, Path]:
    return {path.relative_to(docs_dir).as_posix(): path for path in _files(docs_dir, "*.md")}


def _files(folder: Path, pattern: str) -> Iterator[Path]:
    # Hidden files and folders (editor swap files, caches) are not the site's.
    for path in sorted(folder.rglob(pattern)):
        parts = path.relative_to(folder).parts
        if path.is_file() and not any(p.startswith(".") or p == "__pycache__" for p in parts):
            yield path


def _leaf_keys(data: Any, prefix: str = "") -> Iterator[str]:
    for key, _value in _leaf_items(data, prefix):
        yield key


def _leaf_items(data: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaf_items(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _leaf_items(value, f"{prefix}[{i}]")
    else:
        yield prefix, data


def _show(path: Path, root: Path | None) -> str:
    base = (root or Path.cwd()).resolve()
    try:
        return path.resolve().relative_to(base).as_posix()
    except ValueError:
        return str(path)


def _trusted(function: Callable[..., Any], name: str) -> Callable[..., Markup]:
    """A page function's output is markup by contract: keep autoescape from escaping it (and
    refuse what is not text, which ``Markup`` would print as its ``repr``)."""

    def call(*args: Any, **kwargs: Any) -> Markup:
        value = function(*args, **kwargs)
        if not isinstance(value, str):
            raise SiteCheckError(f"{name}(...) gave {type(value).__name__}, not text")
        return Markup(value)

    call.__name__ = name
    return call


def _template_line(exc: BaseException, name: str) -> int | None:
    """The page line being rendered when ``exc`` was raised (Jinja maps frames to the page)."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == name or frame.filename.endswith(f"/{name}"):
            line = frame.lineno
    return line
