"""The claim checker's runtime in the built site: Pyodide, a trimmed standard library, the engine.

A reader who opens the checker downloads what is written here, so it is kept small:

* Pyodide's core files from ``node_modules/pyodide`` (the WebAssembly interpreter and its loader);
* ``python_stdlib.zip`` holding only the standard-library modules that the engine and Pyodide's
  own start-up can import (their import closure, read from the sources in Pyodide's full
  standard library), without comments and docstrings: a fifth of the full archive;
* a lock file that lists no package: the engine uses the standard library only, so nothing is
  ever fetched from a package index;
* ``schotten-engine.zip``: the engine core;
* a ``.gz`` copy of every large text or binary file, for hosts that serve precompressed files.

Everything is written aside and renamed into place: a failed build never leaves half a file.

>>> sorted(imported_modules("import json\\nfrom . import x\\nfrom collections.abc import Set"))
['collections.abc', 'collections.abc.Set', 'json']
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import tokenize
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

from schotten.site import SiteCheckError

REPO = Path(__file__).resolve().parents[3]
ENGINE = Path(__file__).resolve().parents[1]
PYODIDE = REPO / "node_modules" / "pyodide"
CACHE = REPO / "node_modules" / ".cache" / "schotten-site"  # untracked, beside what it derives from
# Where the checker lives in the built site; checker.js finds the rest next to itself.
CHECKER_DIR = Path("assets") / "checker"
RUNTIME_DIR = CHECKER_DIR / "pyodide"
ENGINE_ZIP = "schotten-engine.zip"
STDLIB_ZIP = "python_stdlib.zip"
LOCK_FILE = "pyodide-lock.json"
# Copied as they are (Pyodide's docs: the core files); the consoles, type declarations and
# source maps stay out of the site.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "package.json")
# The engine's entry point in the browser: the standard library follows from what it imports.
ENTRY = "schotten.checker"
# What Pyodide imports by name while it starts and answers (pyodide.asm.mjs, pyodide.mjs), and
# what runs lazily on that path (codecs looked up by name, the exception hook). The browser test
# starts the checker on this list and answers every published case.
LAZY = (
    "_pyodide",
    "_pyodide._base",
    "_pyodide._core_docs",
    "_pyodide._future_helper",
    "_pyodide._importhook",
    "_pyodide.docs_argspec",
    "_pyodide.docstring",
    "_pyodide.jsbind",
    "pyodide",
    "pyodide.ffi",
    "pyodide.code",
    "pyodide._package_loader",
    "importlib",
    "site",
    "traceback",
    "functools",
    "encodings",
    "encodings.aliases",
    "encodings.utf_8",
    "encodings.utf_8_sig",
    "encodings.ascii",
    "encodings.latin_1",
)
# Files compressed beside themselves; smaller ones gain too little to be worth a second copy.
GZIP_SUFFIXES = (".wasm", ".mjs", ".js", ".json", ".css")
GZIP_MIN_BYTES = 4096


# Import statements, read as text: Pyodide's standard library is newer Python than the one that
# builds the site, so its sources cannot always be parsed here. Lines inside strings that look
# like imports only add modules: the result may be larger than needed, never smaller.
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w. \t,]+)", re.MULTILINE)
_FROM = re.compile(
    r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)", re.MULTILINE
)


def _names(text: str) -> list[str]:
    """``a as b, c`` -> ``['a', 'c']`` (comments and parentheses dropped)."""
    text = re.sub(r"#[^\n]*", "", text).strip("()")
    names = [part.split()[0] for part in text.replace("\\", " ").split(",") if part.split()]
    return [name for name in names if re.fullmatch(r"[\w.]+", name)]


# A line at column 0 opening a function or a class: the imports under it run later, if ever.
_DEFERRED = re.compile(r"(async[ \t]+def|def|class|@)\b|@")
_NOT_RUN = re.compile(r"if[ \t]+((typing\.)?TYPE_CHECKING\b|__name__[ \t]*==[ \t]*.__main__.)")


def _executed_at_import(source: str) -> str:
    """The source without the blocks that do not run when the module is imported: bodies of
    functions and classes at top level, ``if TYPE_CHECKING:`` and ``if __name__ ==
    "__main__":`` blocks. Lazy imports inside a
    function are left to the roots (see :data:`LAZY`), checked by the browser test."""
    kept: list[str] = []
    skipping = False
    for line in source.splitlines():
        if line[:1] not in ("", " ", "\t", "#", ")", "]", "}"):
            skipping = bool(_DEFERRED.match(line) or _NOT_RUN.match(line))
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


def imported_modules(source: str, package: str = "", *, lazy: bool = True) -> set[str]:
    """The absolute module names a Python source imports: anywhere in it (``lazy``, an
    over-estimate), or only in the code that runs when the module is imported.

    ``package`` resolves relative imports (``from . import x`` inside ``package``); names
    imported from a module (``from json import dumps``) are kept as possible submodules.
    """
    if not lazy:
        source = _executed_at_import(source)
    found: set[str] = set()
    for match in _IMPORT.finditer(source):
        found.update(_names(match.group(1)))
    for match in _FROM.finditer(source):
        dots, module, names = match.groups()
        if dots:
            parts = package.split(".") if package else []
            if not package or len(dots) - 1 > len(parts):
                continue
            base = ".".join(parts[: len(parts) - (len(dots) - 1)])
            module = f"{base}.{module}" if module else base
        if module:
            found.add(module)
            found.update(f"{module}.{name}" for name in _names(names))
    return found


def _module_name(path: str) -> tuple[str, bool] | None:
    """``a/b.py`` -> (``a.b``, False); ``a/__init__.py`` -> (``a``, True); not a module: None."""
    if not path.endswith(".py"):
        return None
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def stdlib_closure(full: zipfile.ZipFile, roots: Iterable[str]) -> set[str]:
    """The paths in ``full`` (Pyodide's standard library) of every module reachable from
    ``roots`` by import statements, with the packages that contain them."""
    modules: dict[str, tuple[str, bool]] = {}
    for path in full.namelist():
        named = _module_name(path)
        if named is not None:
            modules[named[0]] = (path, named[1])
    kept: set[str] = set()
    todo = list(roots)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        # A package is needed by each of its submodules.
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)
        if name not in modules:
            continue  # built in, frozen, or a name imported from a module: nothing to add
        path, is_package = modules[name]
        kept.add(path)
        package = name if is_package else parent
        todo.extend(imported_modules(full.read(path).decode("utf-8"), package, lazy=False))
    return kept


def engine_sources() -> list[Path]:
    """The engine core shipped to the browser: the package's top-level modules, which use the
    standard library only (sub-packages such as ``site`` and ``casebook`` stay out)."""
    return sorted(ENGINE.glob("*.py"))


def engine_imports(entry: str = ENTRY) -> set[str]:
    """The standard-library modules the engine can import from ``entry`` on: every import of
    every engine module it reaches (function bodies included), engine modules left out."""
    sources = {f"schotten.{path.stem}": path for path in engine_sources()}
    stdlib: set[str] = set()
    todo, seen = [entry], set()
    while todo:
        name = todo.pop()
        if name in seen or name not in sources:
            continue
        seen.add(name)
        for module in imported_modules(sources[name].read_text(encoding="utf-8"), "schotten"):
            if module.split(".")[0] == "schotten":
                todo.append(module)
            else:
                stdlib.add(module)
    return stdlib


def write_stdlib_zip(full_zip: Path, target: Path, cache: Path | None = None) -> None:
    """The standard library the checker needs: Pyodide's full archive cut down to the import
    closure of the engine and of Pyodide's start-up, without comments and docstrings.

    Stripping takes seconds, so the result is kept in ``cache`` (a folder), under a name made
    from everything it depends on: Pyodide's archive, the modules kept, and this module's code.
    """
    with zipfile.ZipFile(full_zip) as full:
        kept = stdlib_closure(full, [*engine_imports(), *LAZY])
        key = hashlib.sha256(full_zip.read_bytes())
        key.update("\n".join(sorted(kept)).encode())
        key.update(Path(__file__).read_bytes())
        cached = cache / f"python_stdlib-{key.hexdigest()[:16]}.zip" if cache else None
        if cached is not None and cached.is_file():
            shutil.copyfile(cached, target)
            return
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
            for info in full.infolist():
                if info.filename in kept:
                    source = full.read(info.filename)
                    if info.filename.endswith(".py"):
                        source = stripped_source(source)
                    out.writestr(info, source, zipfile.ZIP_DEFLATED, 9)
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}.part")
        shutil.copyfile(target, partial)
        partial.replace(cached)


def _without_docstrings(tree: ast.AST) -> str:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                value.value = ""
    return ast.dump(tree)


def stripped_source(source: bytes) -> bytes:
    """``source`` without comments, its docstrings emptied: the same code, about half the size.

    Only when this Python reads the source entirely and the result compiles to the same syntax
    tree (docstrings aside); otherwise ``source`` as it is (for syntax newer than this Python's).

    >>> stripped_source(b"'Doc.'\\nx = 1  # one\\n").split()
    [b'""', b'x', b'=', b'1']
    """
    try:
        tokens = list(tokenize.tokenize(io.BytesIO(source).readline))
        kept = []
        previous = tokenize.ENCODING
        for i, token in enumerate(tokens):
            if token.type == tokenize.COMMENT:
                continue
            following = tokens[i + 1].type if i + 1 < len(tokens) else None
            if (
                token.type == tokenize.STRING
                and previous in _STATEMENT_START
                and following == tokenize.NEWLINE
            ):
                token = token._replace(string='""')
            if token.type != tokenize.NL:
                previous = token.type
            kept.append(token)
        result = tokenize.untokenize(kept)
        if not isinstance(result, bytes):
            return source
        if _without_docstrings(ast.parse(result)) != _without_docstrings(ast.parse(source)):
            return source
    except (SyntaxError, tokenize.TokenError, ValueError, IndentationError):
        return source
    return result


_STATEMENT_START = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)


def write_lock_file(full_lock: Path, target: Path) -> None:
    """Pyodide's lock file without its package list: the same runtime, nothing to install."""
    try:
        info = json.loads(full_lock.read_text(encoding="utf-8"))["info"]
    except (OSError, ValueError, KeyError) as exc:
        raise SiteCheckError(f"{full_lock}: not a Pyodide lock file ({exc})") from exc
    target.write_text(json.dumps({"info": info, "packages": {}}), encoding="utf-8")


def write_engine_zip(target: Path) -> None:
    """Zip the engine core as ``schotten/<module>.py`` (importable from the zip itself)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for source in engine_sources():
            archive.write(source, f"schotten/{source.name}")


def write_gzip_copy(path: Path, cache: Path | None = None) -> None:
    """``<path>.gz`` beside ``path``, for hosts that serve precompressed files (kept in
    ``cache`` by the content's hash: the best compression takes seconds)."""
    target = path.with_name(path.name + ".gz")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    cached = cache / f"{path.name}-{digest}.gz" if cache else None
    if cached is not None and cached.is_file():
        shutil.copyfile(cached, target)
        return
    partial = path.with_name(f"{path.name}.gz.{os.getpid()}.part")
    # mtime 0: the same input gives the same bytes, build after build.
    with (
        path.open("rb") as source,
        partial.open("wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as out,
    ):
        shutil.copyfileobj(source, out)
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(partial, cached.with_name(partial.name))
        cached.with_name(partial.name).replace(cached)
    partial.replace(target)


def _written(target: Path, write: Callable[[Path], None]) -> None:
    partial = target.with_name(target.name + ".part")
    write(partial)
    partial.replace(target)


def install_runtime(site_dir: Path) -> None:
    """Write into the built site what the checker needs at run time (see the module's doc).

    ``<site>/assets/checker/pyodide/``: the runtime; ``<site>/assets/checker/schotten-engine.zip``:
    the engine core. The checker's own scripts and stylesheet come from
    ``site_src/assets/checker/`` with the other pages' files.
    """
    needed = (*PYODIDE_FILES, STDLIB_ZIP, LOCK_FILE)
    missing = [name for name in needed if not (PYODIDE / name).is_file()]
    if missing:
        raise SiteCheckError(
            f"Pyodide is not installed ({PYODIDE} lacks {', '.join(missing)}): "
            "run `npm ci` in the repository first"
        )
    target = Path(site_dir) / CHECKER_DIR
    runtime = Path(site_dir) / RUNTIME_DIR
    runtime.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, runtime / name)
    _written(runtime / STDLIB_ZIP, lambda p: write_stdlib_zip(PYODIDE / STDLIB_ZIP, p, CACHE))
    _written(runtime / LOCK_FILE, lambda p: write_lock_file(PYODIDE / LOCK_FILE, p))
    _written(target / ENGINE_ZIP, write_engine_zip)
    for path in sorted(runtime.iterdir()):
        if path.suffix in GZIP_SUFFIXES and path.stat().st_size >= GZIP_MIN_BYTES:
            write_gzip_copy(path, CACHE)
