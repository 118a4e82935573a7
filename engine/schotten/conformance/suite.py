"""The suite's files: written by :func:`export`, read back by :func:`load`.

A suite folder holds, for each kind, ``<kind>.jsonl`` (one vector a line) and
``<kind>.schema.json``, the protocol's ``protocol.schema.json``, and ``manifest.json`` (the
format version, and each file's vector count and SHA-256). Files are written whole through a
temporary file, so a failed export leaves the previous files as they were.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schotten import json_input
from schotten._files import InputFileError, read_regular_file, refuse_under_ci
from schotten.conformance.schemas import SCHEMAS
from schotten.conformance.vectors import case_vectors, vectors
from schotten.conformance.wire import KINDS, PROTOCOL, SUITE_FORMAT, dumps
from schotten.errors import SchottenError

MANIFEST = "manifest.json"
MAX_FILE_BYTES = 64 * 1024 * 1024  # the suite's largest file has 6 MB


_NOT_UNDER_CI = (
    "the suite is not rewritten when CI is set: it is regenerated on purpose, on a working copy, "
    "and the diff is reviewed"
)

RULES_EDITION = "iello-2016+rulings"
"""The rules the answers follow: the IELLO 2016 booklet, with the rulings of ``RULES.md``."""


def suite_version() -> str:
    """The suite's version: the package's that exports it (written in ``pyproject.toml``)."""
    try:
        return importlib.metadata.version("schotten")
    except importlib.metadata.PackageNotFoundError:  # a source tree used without installing
        return "unknown"


class SuiteError(SchottenError):
    """A suite folder that cannot be read or written, said in one sentence."""


def export(
    folder: Path,
    cases_folder: Path | None,
    kinds: Sequence[str] = KINDS,
    progress: Callable[[str, int], None] | None = None,
) -> dict[str, Any]:
    """Write the suite into ``folder`` (created if needed); returns the manifest.

    ``progress(kind, done)`` is called as vectors are made. Refused when ``CI`` is set: the suite
    is regenerated on purpose, on a working copy, and its diff reviewed.
    """
    refuse_under_ci(_NOT_UNDER_CI)
    folder.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, Any] = {
        "format": SUITE_FORMAT,
        "protocol": PROTOCOL,
        "version": suite_version(),
        "rules": RULES_EDITION,
        "kinds": {},
    }
    old = _old_manifest(folder)
    for kind in KINDS:
        if kind not in kinds:
            if kind in old:
                manifest["kinds"][kind] = old[kind]
            continue
        lines = []
        for vector in vectors(kind, cases_folder):
            lines.append(dumps(vector))
            if progress is not None:
                progress(kind, len(lines))
        text = "".join(line + "\n" for line in lines)
        _write(folder / f"{kind}.jsonl", text)
        _write(folder / f"{kind}.schema.json", _pretty(SCHEMAS[kind]))
        manifest["kinds"][kind] = {
            "file": f"{kind}.jsonl",
            "schema": f"{kind}.schema.json",
            "vectors": len(lines),
            "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        }
    _write(folder / "protocol.schema.json", _pretty(SCHEMAS["protocol"]))
    _write(folder / MANIFEST, _pretty(manifest))
    return manifest


CASE_PREFIX = b'{"id":"case:'
"""How a line of the casebook's vectors begins (they come first in their files)."""


def export_cases(folder: Path, cases_folder: Path, case_kinds: Sequence[str]) -> dict[str, Any]:
    """Write the casebook's vectors of ``case_kinds`` again in the suite in ``folder``, keeping the
    generated vectors of each file line for line; returns the manifest.

    The generated vectors do not depend on the cases, and only :func:`export` makes them anew:
    this is what ``approve`` and ``retire`` need, in a second or two where the whole export
    takes about twenty. A file whose SHA-256 is not the manifest's is refused (it was edited or
    cut): :func:`export` writes it whole. Refused when ``CI`` is set, as :func:`export` is.
    """
    refuse_under_ci(_NOT_UNDER_CI)
    written = dict(manifest(folder))
    listed = dict(kinds(folder))
    texts = {}
    for kind in case_kinds:
        entry, data = _manifest_checked(folder, kind, listed.get(kind))
        path = folder / f"{kind}.jsonl"
        kept = [line for line in data.split(b"\n") if line and not line.startswith(CASE_PREFIX)]
        made = [dumps(vector).encode("utf-8") for vector in case_vectors(kind, cases_folder)]
        text = b"".join(line + b"\n" for line in made + kept)
        texts[path] = text
        listed[kind] = {
            **entry,
            "vectors": len(made) + len(kept),
            "sha256": hashlib.sha256(text).hexdigest(),
        }
    for path, text in texts.items():  # every file made before any is written
        _write(path, text.decode("utf-8"))
    written["kinds"] = listed
    _write(folder / MANIFEST, _pretty(written))
    return written


# How the export writes a vector's line: its id first. The id is read from there when it has
# only these characters (every id the export makes); any other line is decoded whole.
_PLAIN_ID = re.compile(rb'\{"id":"([A-Za-z0-9:._-]+)"[,}]')


@dataclass(frozen=True)
class KindFile:
    """One kind's file whose SHA-256 and vector count are the manifest's, each vector still its
    line: a run that asks for a few vectors of a large file decodes only those (a full decoding
    of the claims takes about half a second)."""

    path: Path
    lines: tuple[tuple[int, bytes], ...]
    """Each vector's line, with its number in the file (from 1)."""

    def __len__(self) -> int:
        return len(self.lines)

    def vector(self, index: int) -> dict[str, Any]:
        """The vector at ``index`` (from 0, in file order), decoded by the strict reader; a line
        that is not a vector is a :class:`SuiteError` naming the file and the line."""
        number, line = self.lines[index]
        try:
            vector = json_input.loads(line)
        except json_input.JsonInputError as error:
            raise SuiteError(f"{self.path}:{number}: not JSON ({error})") from None
        if not isinstance(vector, dict) or not isinstance(vector.get("id"), str):
            raise SuiteError(f"{self.path}:{number}: a vector is an object with an id")
        return vector

    def ident(self, index: int) -> str:
        """The id of the vector at ``index``, without decoding the rest of its line when the line
        begins as the export writes it."""
        plain = _PLAIN_ID.match(self.lines[index][1])
        if plain is not None:
            return plain.group(1).decode("ascii")
        ident: str = self.vector(index)["id"]
        return ident

    def vectors(self) -> list[dict[str, Any]]:
        """Every vector, in file order."""
        return [self.vector(index) for index in range(len(self.lines))]


def load(folder: Path, kind: str) -> list[dict[str, Any]]:
    """The vectors of one kind, checked against the manifest (their number and the file's
    SHA-256: a cut or edited file is refused); any problem is a :class:`SuiteError` naming the
    file."""
    return read(folder, kind).vectors()


def read(folder: Path, kind: str) -> KindFile:
    """The file of one kind, checked whole against the manifest as :func:`load` checks it, its
    vectors left unread until asked for (:meth:`KindFile.vector`)."""
    entry, data = _manifest_checked(folder, kind, kinds(folder).get(kind))
    path = folder / f"{kind}.jsonl"
    lines = tuple((n, line) for n, line in enumerate(data.split(b"\n"), 1) if line.strip())
    if len(lines) != entry.get("vectors"):
        raise SuiteError(
            f"{path}: {len(lines)} vectors, where {MANIFEST} says {entry.get('vectors')}"
        )
    return KindFile(path, lines)


def _manifest_checked(folder: Path, kind: str, entry: object) -> tuple[dict[str, Any], bytes]:
    """The manifest's ``entry`` of the kind and the bytes of its file, refused unless the entry
    has their SHA-256."""
    if not isinstance(entry, dict):
        raise SuiteError(f"{folder / MANIFEST}: no entry for the kind {kind}")
    path = folder / f"{kind}.jsonl"
    try:
        data = read_regular_file(path, MAX_FILE_BYTES)
    except InputFileError as error:
        raise SuiteError(str(error)) from None
    if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
        raise SuiteError(
            f"{path}: its SHA-256 is not the one of {MANIFEST}: the file was changed or cut "
            "(a suite is regenerated with `schotten conformance export`, not edited)"
        )
    return entry, data


def json_lines(
    data: bytes, not_json: Callable[[int, json_input.JsonInputError], Exception]
) -> Iterator[tuple[int, Any]]:
    """Each line of a JSON-lines file (a suite file, a run's ``--report``) that is not blank, read
    with the strict reader, and its number (from 1); a line that is not JSON raises what
    ``not_json`` makes of its number and the reader's error."""
    for number, line in enumerate(data.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            value = json_input.loads(line)
        except json_input.JsonInputError as error:
            raise not_json(number, error) from None
        yield number, value


def manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        data = json_input.loads(read_regular_file(path, 1024 * 1024))
    except InputFileError as error:
        raise SuiteError(f"{error} (is this a suite folder?)") from None
    except json_input.JsonInputError as error:
        raise SuiteError(f"{path}: not JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != SUITE_FORMAT:
        raise SuiteError(f"{path}: not a {SUITE_FORMAT} manifest")
    return data


def kinds(folder: Path) -> dict[str, Any]:
    """The manifest's entry of every kind; a manifest that lacks one of the suite's kinds is
    refused (``"kinds": {}`` would pass any engine): a run narrows with ``--kind`` instead."""
    listed = manifest(folder).get("kinds")
    if not isinstance(listed, dict):
        raise SuiteError(f"{folder / MANIFEST}: 'kinds' is not an object")
    missing = [k for k in KINDS if k not in listed]
    if missing:
        raise SuiteError(
            f"{folder / MANIFEST}: the kinds {', '.join(missing)} are missing (a suite has "
            f"them all: {', '.join(KINDS)})"
        )
    return listed


def _old_manifest(folder: Path) -> dict[str, Any]:
    try:
        kinds = manifest(folder).get("kinds", {})
    except SuiteError:
        return {}
    return kinds if isinstance(kinds, dict) else {}


def _pretty(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` at once (a temporary file beside it, then a rename)."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.chmod(temporary, 0o644)  # mkstemp makes it private; the suite is for everyone
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
