"""The publishing gate, independent of MkDocs: nothing is published that it refuses.

:func:`prepare` does everything that can refuse a publication, before a single file is written:

- it loads every case file (an invalid file is an error, with its file and line) and replays each
  one through the engine; a verdict, reason or witness that differs from the recorded one is an
  error naming the case file and line, recorded against computed;
- it checks that both languages are there: every page exists as ``name.md`` (French) and
  ``name.es.md`` (Spanish), every published case has its texts in both, both label catalogues
  have the same keys;
- it renders every page of both languages (:func:`schotten.site.render.render_page`), so that a
  false example, a missing function or a label missing in one language fails here too.

It returns the rendered Markdown of every page and the questions each answers; the MkDocs plugin
(:mod:`schotten.site.plugin`) only hands them over. All problems are reported together in one
:class:`~schotten.site.SiteCheckError`.

The result depends only on the files it reads: :func:`fingerprint` hashes them, and the plugin
keeps the last result by fingerprint (``mkdocs serve`` rebuilds after each edit).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import schotten
from schotten._files import InputFileError, file_kind, read_text
from schotten.casebook import CaseFileError, CaseResult, ExpectedStone
from schotten.casebook.folder import load_folder, run_cases
from schotten.casebook.hints import suggest_word
from schotten.site import LANGUAGES, SiteCheckError, labels, tables
from schotten.site.questions import QuestionAnswer
from schotten.site.render import render_page
from schotten.typography import spacing_faults

DEFAULT_LANGUAGE = LANGUAGES[0]
_MAX_HASHED_BYTES = 4 * 1024 * 1024  # a page or a case is far smaller
_SUFFIX = re.compile(r"^(?P<stem>.+?)(?:\.(?P<lang>[a-z]{2}))?\.md$")


@dataclass(frozen=True)
class Prepared:
    """What the gate let through: the rendered pages, their questions and the published cases."""

    sources: Mapping[str, str]  # source path relative to docs_dir -> the page as read
    pages: Mapping[str, str]  # source path relative to docs_dir (``rules.es.md``) -> Markdown
    results: tuple[CaseResult, ...]  # the published cases, with the engine's results on them
    # source path -> the question/answer pairs the page shows, in page order
    questions: Mapping[str, tuple[QuestionAnswer, ...]]

    def source(self, src_uri: str) -> str:
        """The page's source as the gate read it (the build reads no page file itself)."""
        return self._get(self.sources, src_uri)

    def page(self, src_uri: str) -> str:
        return self._get(self.pages, src_uri)

    def questions_of(self, src_uri: str) -> tuple[QuestionAnswer, ...]:
        """The questions the page answers (its head's structured data)."""
        if src_uri not in self.pages:
            raise SiteCheckError(f"{src_uri}: page was not checked before the build")
        return self.questions.get(src_uri, ())

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
    results = _published_results(cases_dir, problems, display_root, places)
    problems += label_problems()
    problems += label_spacing_problems()
    problems += special_file_problems(docs_dir, display_root)
    pages = _page_sources(docs_dir)
    problems += language_problems(pages, docs_dir, display_root)
    problems += nav_problems(nav, pages, docs_dir, display_root)
    sources: dict[str, str] = {}
    rendered: dict[str, str] = {}
    asked: dict[str, tuple[QuestionAnswer, ...]] = {}
    shown: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    failed: set[str] = set()
    if not problems:
        for src_uri, path in pages.items():
            lang = page_language(src_uri)
            try:
                sources[src_uri] = read_page(path, display_root)
                if lang == "fr":
                    problems += page_spacing_problems(sources[src_uri], _show(path, display_root))
                page = render_page(
                    sources[src_uri], lang, _show(path, display_root), results, shown[lang]
                )
                rendered[src_uri], asked[src_uri] = page.markdown, page.questions
            except SiteCheckError as exc:
                problems.append(str(exc))
                failed.add(lang)
        # A page that failed stopped at its fault: the tables after it were never reached, and
        # saying they are on no page would be a second message for the same fault.
        problems += table_problems(results, shown, places, skip=failed)
    if problems:
        raise SiteCheckError(
            "refusing to publish the site:\n" + "\n".join(f"  {p}" for p in problems)
        )
    return Prepared(sources, rendered, results, asked)


_PAGE_SPACES = {":": "a no-break space (U+00A0)", "«": "a no-break space (U+00A0)"}


def page_spacing_problems(source: str, shown: str) -> list[str]:
    """French spacing faults typed in a page's prose, at the page's own line: an ordinary space
    where French puts a no-break one, or « » without theirs. Code blocks are left out, and so is
    "no space before" (front matter keys and the pages' calls write ``key: value``).

    >>> found = page_spacing_problems("---\\ntitle: R\\n---\\nAttention : quatre", "p.md")
    >>> print(found[0].replace(": type", ":\\n  type"))
    p.md:4: ordinary space before ":" in "ntion : qua":
      type a no-break space (U+00A0) in place of the space
    """
    problems = []
    fenced = False
    for number, line in enumerate(source.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        for fault in spacing_faults(line):
            if fault.startswith("no space before"):
                continue
            mark = fault.split('"')[1]
            space = _PAGE_SPACES.get(mark, "a narrow no-break space (U+202F)")
            fix = (
                f"type {space} in place of the space"
                if fault.startswith("ordinary")
                else f"type {space} there"
            )
            problems.append(f"{shown}:{number}: {fault}: {fix}")
    return problems


def table_problems(
    results: Sequence[CaseResult],
    shown: Mapping[str, set[str]],
    places: Mapping[str, str] | None = None,
    skip: set[str] | frozenset[str] = frozenset(),
) -> list[str]:
    """Published tables that a language's pages never show (``places``: the file and line of a
    case that publishes each table, named first, with the table most likely meant)."""
    published = sorted({r.case.published.table for r in results if r.case.published is not None})
    problems = []
    for lang in LANGUAGES:
        if lang in skip:
            continue
        for table in published:
            if table in shown.get(lang, set()):
                continue
            problem = (
                f"published table {table!r} is on no page in {lang} (call verdict_table({table!r}))"
            )
            if places and table in places:
                # Only a table some case publishes is suggested, never a page's typo.
                meant = suggest_word(table, sorted(shown.get(lang, set()) & set(published)))
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


def _published_results(
    cases_dir: Path,
    problems: list[str],
    display_root: Path | None,
    places: dict[str, str] | None = None,
) -> tuple[CaseResult, ...]:
    try:
        cases, errors = load_folder(cases_dir)
    except CaseFileError as exc:  # the folder itself cannot be listed
        cases, errors = [], list(exc.errors)
    # The valid cases are still replayed, so that every changed verdict is reported too; a
    # play-on naming the wrong player makes its file invalid when it is played.
    ran, invalid = run_cases(cases)
    problems += [
        f"invalid case file: {_show(Path(e.path), display_root)}:{e.line}:{e.column}: {e.detail}"
        for e in [*errors, *invalid]
    ]
    results: list[CaseResult] = []
    for result in ran:
        case = result.case
        problems += mismatch_lines(result, display_root)
        if case.published is None:
            continue
        if places is not None:
            line = case.line_of("published", "table")
            places.setdefault(case.published.table, f"{_show(case.path, display_root)}:{line}")
        problems += tables.case_problems(case, _show(case.path, display_root))
        if not result.verdicts and result.computed.play_on is None:
            problems.append(
                f"{_show(case.path, display_root)}: a published case claims a stone or plays on"
            )
        results.append(result)
    return tuple(results)


def mismatch_lines(result: CaseResult, display_root: Path | None = None) -> list[str]:
    """One line per claimed stone whose verdict changed, recorded against computed, then one per
    other recorded value that changed.

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
        number = m.stone
        if number is not None:
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
    if lines:
        lines.append(f"{where}:{case.line_of('stones')}: {result.next_step()}")
    return lines


def _stone_text(stone: ExpectedStone | None) -> str:
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
