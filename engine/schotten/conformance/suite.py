"""The suite's files: written by :func:`export`, read back by :func:`load`.

A suite folder holds, for each kind, ``<kind>.jsonl`` (one vector a line) and
``<kind>.schema.json``, the protocol's ``protocol.schema.json``, and ``manifest.json`` (the
format version, and each file's vector count and SHA-256). Files are written whole through a
temporary file, so a failed export leaves the previous files as they were.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from schotten._files import refuse_under_ci
from schotten.conformance.schemas import SCHEMAS
from schotten.conformance.vectors import KINDS, vectors
from schotten.conformance.wire import PROTOCOL, SUITE_FORMAT, dumps
from schotten.errors import SchottenError

MANIFEST = "manifest.json"


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
    refuse_under_ci(
        "the suite is not rewritten when CI is set: it is regenerated on purpose, on a "
        "working copy, and the diff is reviewed"
    )
    folder.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, Any] = {"format": SUITE_FORMAT, "protocol": PROTOCOL, "kinds": {}}
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


def load(folder: Path, kind: str) -> list[dict[str, Any]]:
    """The vectors of one kind; a missing or damaged file is a :class:`SuiteError` naming it."""
    return list(iter_vectors(folder, kind))


def iter_vectors(folder: Path, kind: str) -> Iterator[dict[str, Any]]:
    path = folder / f"{kind}.jsonl"
    try:
        handle = path.open(encoding="utf-8")
    except OSError as error:
        raise SuiteError(f"{path}: {error.strerror or error}") from None
    with handle:
        for number, line in enumerate(handle, 1):
            try:
                vector = json.loads(line)
            except ValueError as error:
                raise SuiteError(f"{path}:{number}: not JSON ({error})") from None
            if not isinstance(vector, dict) or not isinstance(vector.get("id"), str):
                raise SuiteError(f"{path}:{number}: a vector is an object with an id")
            yield vector


def manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SuiteError(f"{path}: {error.strerror or error} (is this a suite folder?)") from None
    except ValueError as error:
        raise SuiteError(f"{path}: not JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != SUITE_FORMAT:
        raise SuiteError(f"{path}: not a {SUITE_FORMAT} manifest")
    return data


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
