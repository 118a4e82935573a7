"""The suite as one zip file, for those who copy data rather than install a package.

The archive is reproducible: the same files give the same bytes (names sorted, one fixed date,
fixed permissions, one compression level), so a rebuilt site does not change it, and its files
sit under one folder named with the suite's version.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "manifest.json").write_text('{"version": "1.0"}')
>>> _ = (folder / "claims.jsonl").write_text("{}\\n")
>>> archive_name({"version": "1.0"})
'schotten-conformance-1.0.zip'
>>> archive_bytes(folder, "s") == archive_bytes(folder, "s")
True
>>> sorted(zipfile.ZipFile(io.BytesIO(archive_bytes(folder, "s"))).namelist())
['s/claims.jsonl', 's/manifest.json']
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from schotten._files import read_regular_file
from schotten.conformance.suite import MAX_FILE_BYTES

_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip file can say: no build's date gets in
_VERSION = re.compile(r"[0-9A-Za-z.+-]{1,40}")


def archive_name(manifest: Mapping[str, Any]) -> str:
    """``schotten-conformance-<version>.zip`` (the version read from the manifest)."""
    version = manifest.get("version")
    if not isinstance(version, str) or not _VERSION.fullmatch(version):
        version = "unversioned"
    return f"schotten-conformance-{version}.zip"


def suite_files(folder: Path) -> list[Path]:
    """The suite's files, sorted: every regular file under ``folder`` but hidden files and
    Python's caches."""
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and not any(
            part.startswith(".") or part == "__pycache__" for part in path.relative_to(folder).parts
        )
    )


def archive_bytes(folder: Path, root: str) -> bytes:
    """The zip of the suite in ``folder``, its files under ``root/``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in suite_files(folder):
            info = zipfile.ZipInfo(f"{root}/{path.relative_to(folder).as_posix()}", _DATE)
            info.external_attr = 0o100644 << 16  # a regular file, rw-r--r--
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, read_regular_file(path, MAX_FILE_BYTES), compresslevel=9)
    return buffer.getvalue()
