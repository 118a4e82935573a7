"""Python archives turned into bytecode: what lets the in-page checker start without compiling.

Pyodide's standard library comes as sources, and compiling them is most of the interpreter's
start in a browser (about three seconds of a four-second start on the kind of machine the site is
measured on). :func:`compiled_archive` turns an archive of sources into one of ``.pyc`` files that
``zipimport`` loads as they are. It runs inside the Python that will load the result (the site's
Pyodide, started by ``bytecode.mjs`` under Node), since bytecode belongs to one Python version.

* Each ``x.py`` becomes ``x.pyc``, an *unchecked hash-based* pyc (PEP 552): no timestamps, so the
  same sources always give the same bytes, and the loader never looks for the source.
* The bytecode is lean, for the download's sake: compiled as ``python -OO`` would (no
  docstrings, no ``assert``; the standard library supports it, and the engine's asserts only
  narrow types), and without line numbers, which take a third of the rest. A traceback still
  names the file and the function, not the line: the checker's answers never show one.
* Entries are *stored*: the site serves the archive gzip-compressed as a whole, which compresses
  the many small files better than compressing each one inside the archive.

>>> import io, zipfile
>>> source = io.BytesIO()
>>> with zipfile.ZipFile(source, "w") as archive:
...     archive.writestr("pkg/__init__.py", "VALUE = 6 * 7\\n")
>>> compiled = compiled_archive(source.getvalue(), prefix="/lib/app.zip")
>>> zipfile.ZipFile(io.BytesIO(compiled)).namelist()
['pkg/__init__.pyc']
"""

from __future__ import annotations

import importlib.util
import io
import marshal
import types
import zipfile

# PEP 552 flags: bit 0 says the pyc is hash-based, bit 1 (unset) that its source is not checked.
UNCHECKED_HASH = 0b01


# A line-table entry (CPython's Objects/locations.md) with no location, for up to 8 code units:
# the high bit, the kind "none" (15) in the next four bits, then the unit count less one.
_NO_LOCATION = 0x80 | 15 << 3


def _no_locations(units: int) -> bytes:
    """A line table of ``units`` code units, none of them with a location."""
    full, rest = divmod(units, 8)
    return bytes([_NO_LOCATION | 7] * full + ([_NO_LOCATION | rest - 1] if rest else []))


def _without_lines(code: types.CodeType) -> types.CodeType:
    """``code`` with a line table that says "no location" for every instruction: one byte for
    eight code units. (An empty table would break tracebacks, which read a position for every
    instruction.)"""
    consts = tuple(
        _without_lines(const) if isinstance(const, types.CodeType) else const
        for const in code.co_consts
    )
    return code.replace(co_consts=consts, co_linetable=_no_locations(len(code.co_code) // 2))


def pyc_bytes(source: bytes, filename: str) -> bytes:
    """One module's source as the content of its lean ``.pyc`` (unchecked hash-based).

    >>> namespace = {}
    >>> pyc = pyc_bytes(b"ANSWER = 42\\n", "answer.py")
    >>> exec(marshal.loads(pyc[16:]), namespace); namespace["ANSWER"]
    42
    """
    code = _without_lines(compile(source, filename, "exec", dont_inherit=True, optimize=2))
    header = importlib.util.MAGIC_NUMBER + UNCHECKED_HASH.to_bytes(4, "little")
    return header + importlib.util.source_hash(source) + marshal.dumps(code)


def compiled_archive(source: bytes, *, prefix: str) -> bytes:
    """The archive ``source`` with every ``.py`` replaced by its ``.pyc`` and every entry stored.

    ``prefix`` is where the archive will be on the loading Python's path (``/lib/python314.zip``):
    tracebacks name ``<prefix>/<module path>``. Other files are kept as they are, in the same
    order. Every entry is dated 1980-01-01, so the same sources give the same bytes.
    """
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as given, zipfile.ZipFile(out, "w") as written:
        for info in given.infolist():
            data = given.read(info)
            name = info.filename
            if name.endswith(".py"):
                data = pyc_bytes(data, f"{prefix}/{name}")
                name += "c"
            entry = zipfile.ZipInfo(name)
            entry.external_attr = info.external_attr
            written.writestr(entry, data, zipfile.ZIP_STORED)
    return out.getvalue()


def compile_file(source: str, target: str, prefix: str) -> None:
    """:func:`compiled_archive` from one file to another (``bytecode.mjs`` calls this)."""
    with open(source, "rb") as given:
        compiled = compiled_archive(given.read(), prefix=prefix)
    with open(target, "wb") as written:
        written.write(compiled)
