"""Which files of a case folder are cases, and reading one without trusting it.

One rule, used by ``schotten check``, the site build and the tests: every entry of a case folder is
either a case, ``<id>.yaml`` with a kebab-case id, or one of :data:`FOLDER_FILES`; anything else
(``x.yml``, ``x.YAML``, ``x.yaml.bak``, a hidden file, a sub-folder) is an error, never skipped.

A case is read only if it is a regular file (a FIFO, a device or a link to one is refused before it
is opened, and checked again once open), of at most :data:`MAX_CASE_BYTES`, in UTF-8.

>>> case_id_problem(Path("cases/hand-is-not-proof.yaml")) is None
True
>>> case_id_problem(Path("cases/x.yml"))
'case files end in .yaml (lower case): rename it to x.yaml'
"""

from __future__ import annotations

import re
from pathlib import Path

from schotten import _files
from schotten._files import InputFileError, read_text
from schotten.casebook.errors import CaseError, CaseFileError

CASE_SUFFIX = ".yaml"
LOCK_NAME = "published.lock.json"
FOLDER_FILES = ("README.md", "case.schema.json", LOCK_NAME)
MAX_CASE_BYTES = 64 * 1024  # the largest case is a few kilobytes
_CASE_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_YAML_LIKE = re.compile(r"(?i)\.ya?ml$")


def case_id_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a case file by its name, or ``None`` if it can."""
    name = path.name
    if name.endswith(CASE_SUFFIX) and _CASE_ID.fullmatch(name.removesuffix(CASE_SUFFIX)):
        return None
    yaml_like = _YAML_LIKE.search(name)
    if yaml_like is not None:
        stem = name[: yaml_like.start()]
        fixed = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "case"
        existing = path.with_name(f"{fixed}{CASE_SUFFIX}")
        if existing.exists() and not _same_file(existing, path):
            # Renaming it would overwrite the case: say so instead of suggesting it.
            return (
                f"a case file is <id>.yaml in lower case, and a case {fixed} already exists "
                f"({existing.name}): merge the two files into {existing.name}, or give this one "
                "another id"
            )
        if fixed == stem:
            return f"case files end in .yaml (lower case): rename it to {fixed}.yaml"
        return (
            "a case id is kebab-case (lower-case letters, digits, hyphens): "
            f"rename it to {fixed}.yaml"
        )
    return (
        "not a case file: a case folder holds <id>.yaml cases and "
        f"{', '.join(FOLDER_FILES)} only; move it out of the folder"
    )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False


def case_paths(folder: Path) -> tuple[list[Path], list[CaseError]]:
    """The case files of ``folder`` (sorted), and an error for every other entry in it."""
    paths: list[Path] = []
    errors: list[CaseError] = []
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        raise CaseFileError([CaseError(folder, 1, 1, (), _os_problem(exc))]) from exc
    for path in entries:
        if path.name in FOLDER_FILES:
            continue
        if path.is_dir() and not path.is_symlink():
            message = "a folder inside the case folder: cases are files, move it out"
            errors.append(CaseError(path, 1, 1, (), message))
            continue
        problem = case_id_problem(path)
        if problem is None:
            paths.append(path)
        else:
            errors.append(CaseError(path, 1, 1, (), problem))
    return paths, errors


def read_case_text(path: Path) -> str:
    """The text of a case file; :class:`CaseFileError` for anything that is not a small regular
    UTF-8 file (never blocks on a FIFO, never reads a device)."""
    return read_text_file(path, MAX_CASE_BYTES)


def read_text_file(path: Path, limit: int) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes, else :class:`CaseFileError`
    (read by :func:`schotten._files.read_text`, said in the casebook's words).

    Line endings are kept as they are in the file (``approve`` writes them back unchanged).
    """
    try:
        return read_text(path, limit)
    except InputFileError as exc:
        problem = exc.problem.replace("only plain files", "only plain text files")
        for device in ("a character device", "a block device", "a socket"):
            problem = problem.replace(f"{device}, not", "a device or socket, not")
        raise CaseFileError([CaseError(path, exc.line, exc.column, (), problem)]) from exc


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` all at once (:func:`schotten._files.write_atomically`): the
    file keeps its mode, the text is written as given (no line-ending translation)."""
    _files.write_atomically(path, text)


def _os_problem(exc: OSError) -> str:
    return f"cannot read it: {exc.strerror or exc}"
