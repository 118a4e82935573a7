"""The claim checker's runtime in the built site: Pyodide, a trimmed standard library, the engine.

A reader who opens the checker downloads what is written here, so it is kept small:

* Pyodide's core files from ``node_modules/pyodide`` (the WebAssembly interpreter and its loader);
* ``python_stdlib.zip`` holding only the standard-library modules that the engine and Pyodide's
  own start-up can import (their import closure, read from the sources in Pyodide's full
  standard library);
* a lock file that lists no package: the engine uses the standard library only, so nothing is
  ever fetched from a package index;
* ``schotten-engine.zip``: the engine modules the checker imports (not the command line, the
  pictures or the sub-packages);
* a ``.gz`` copy of every large file, for hosts that serve precompressed files, made with Zopfli
  (ordinary gzip, a few percent smaller than ``gzip -9``: the download has a budget).

Both archives hold bytecode, not sources (:mod:`schotten.site.bytecode`): compiling the sources
was most of the checker's start in a browser. The bytecode is made by the site's own Pyodide,
run under Node at build time, since a ``.pyc`` belongs to one Python version.

Everything is written aside and renamed into place: a failed build never leaves half a file.

>>> sorted(imported_modules("import json\\nfrom . import x\\nfrom collections.abc import Set"))
['collections.abc', 'collections.abc.Set', 'json']
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import zopfli.gzip  # type: ignore[import-untyped]

from schotten.site import SiteCheckError

REPO = Path(__file__).resolve().parents[3]
ENGINE = Path(__file__).resolve().parents[1]
PYODIDE = REPO / "node_modules" / "pyodide"
CACHE = REPO / "node_modules" / ".cache" / "schotten-site"  # untracked, beside what it derives from
# Where the checker lives in the built site; checker.js finds the rest next to itself.
CHECKER_DIR = Path("assets") / "checker"
RUNTIME_DIR = CHECKER_DIR / "pyodide"
# The checker's own scripts and stylesheet, which MkDocs copies into the site with the pages.
STATIC = REPO / "site_src" / CHECKER_DIR
ENGINE_ZIP = "schotten-engine.zip"
# Where worker.js writes the engine archive in Pyodide's file system (tracebacks name it).
ENGINE_PATH = f"/{ENGINE_ZIP}"
BYTECODE_SCRIPT = Path(__file__).with_name("bytecode.mjs")
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
# The service worker that keeps the checker's files (see its own comment): written at the site's
# root, so that it serves every page (a page reloaded offline) whatever the site's base path.
SERVICE_WORKER_SOURCE = Path(__file__).with_name("checker-sw.js")
SERVICE_WORKER = "checker-sw.js"
# The engine's worker, from site_src/assets/checker/ (MkDocs copies it before the runtime is
# installed): the first of the files the service worker keeps.
WORKER = "worker.js"
# The address under which the engine's worker keeps, in the service worker's cache, the
# interpreter's memory once the engine is started (worker.js): no file of the site has it.
SNAPSHOT = "snapshot"
CONTENT_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".zip": "application/zip",
}
# Files compressed beside themselves; smaller ones gain too little to be worth a second copy.
GZIP_SUFFIXES = (".wasm", ".mjs", ".js", ".json", ".css", ".zip")
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
# Pyodide's platform is "emscripten": a block for Windows alone never runs there (asyncio's
# Windows event loops, the Windows code pages).
_NOT_RUN = re.compile(
    r"if[ \t]+((typing\.)?TYPE_CHECKING\b|__name__[ \t]*==[ \t]*.__main__."
    r"|sys\.platform[ \t]*==[ \t]*.win32.[ \t]*:)"
)


def _executed_at_import(source: str) -> str:
    """The source without the blocks that do not run when the module is imported: bodies of
    functions and classes at top level, ``if TYPE_CHECKING:``, ``if __name__ ==
    "__main__":`` and ``if sys.platform == "win32":`` blocks. Lazy imports inside a
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


def engine_modules(entry: str = ENTRY) -> dict[str, set[str]]:
    """The engine modules ``entry`` can reach, each with the other modules it imports anywhere
    (function bodies included). Only the package's top level is looked at: sub-packages such as
    ``site`` and ``casebook`` need more than the standard library and never reach the browser.
    """
    sources = {f"schotten.{path.stem}": path for path in sorted(ENGINE.glob("*.py"))}
    sources["schotten"] = sources.pop("schotten.__init__")
    reached: dict[str, set[str]] = {}
    todo = [entry, "schotten"]
    while todo:
        name = todo.pop()
        if name in reached or name not in sources:
            continue
        source = sources[name].read_text(encoding="utf-8")
        reached[name] = imported_modules(source, "schotten")
        todo.extend(module for module in reached[name] if module.split(".")[0] == "schotten")
    return reached


def engine_sources(entry: str = ENTRY) -> list[Path]:
    """The engine modules shipped to the browser: those ``entry`` can import (the command line
    and the pictures stay out)."""
    return sorted(
        ENGINE / ("__init__.py" if name == "schotten" else f"{name.removeprefix('schotten.')}.py")
        for name in engine_modules(entry)
    )


def engine_imports(entry: str = ENTRY) -> set[str]:
    """The standard-library modules the engine can import from ``entry`` on: every import of
    every engine module it reaches (function bodies included), engine modules left out."""
    return {
        module
        for imports in engine_modules(entry).values()
        for module in imports
        if module.split(".")[0] != "schotten"
    }


def write_stdlib_zip(full_zip: Path, target: Path) -> None:
    """The standard library the checker needs, as sources: Pyodide's full archive cut down to
    the import closure of the engine and of Pyodide's start-up (compiled afterwards)."""
    with zipfile.ZipFile(full_zip) as full, zipfile.ZipFile(target, "w") as out:
        kept = stdlib_closure(full, [*engine_imports(), *LAZY])
        for info in full.infolist():
            if info.filename in kept:
                out.writestr(info, full.read(info))


def write_lock_file(full_lock: Path, target: Path) -> None:
    """Pyodide's lock file without its package list: the same runtime, nothing to install."""
    try:
        info = json.loads(full_lock.read_text(encoding="utf-8"))["info"]
    except (OSError, ValueError, KeyError) as exc:
        raise SiteCheckError(f"{full_lock}: not a Pyodide lock file ({exc})") from exc
    target.write_text(json.dumps({"info": info, "packages": {}}), encoding="utf-8")


def write_engine_zip(target: Path) -> None:
    """Zip the engine modules the checker can import as ``schotten/<module>.py`` (importable from
    the zip itself)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for source in engine_sources():
            # Dated 1980-01-01, not by the checkout: the same code, the same archive.
            archive.writestr(zipfile.ZipInfo(f"schotten/{source.name}"), source.read_bytes())


def write_gzip_copy(path: Path, cache: Path | None = None) -> None:
    """``<path>.gz`` beside ``path``, for hosts that serve precompressed files (kept in
    ``cache`` by the content's hash: Zopfli takes seconds a megabyte)."""
    target = path.with_name(path.name + ".gz")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    cached = cache / f"{path.name}-{digest}.zopfli.gz" if cache else None
    if cached is not None and cached.is_file():
        shutil.copyfile(cached, target)
        return
    partial = path.with_name(f"{path.name}.gz.{os.getpid()}.part")
    # One iteration: more gain a tenth of a percent for several times the time. The gzip header
    # has no name and no date: the same input gives the same bytes, build after build.
    partial.write_bytes(zopfli.gzip.compress(path.read_bytes(), numiterations=1))
    if cached is not None:
        _keep(partial, cached)
    partial.replace(target)


def _keep(made: Path, cached: Path) -> None:
    """A copy of ``made`` at ``cached``, written aside and renamed: another build reading the
    cache at the same time sees the whole file or none."""
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(f"{cached.name}.{os.getpid()}.part")
    shutil.copyfile(made, partial)
    partial.replace(cached)


@dataclass(frozen=True)
class BytecodeJob:
    """An archive of sources to write as bytecode (:func:`write_bytecode`)."""

    source: Path
    target: Path
    prefix: str | None  # the archive's path in the browser; None: the standard library's own


def write_bytecode(jobs: Sequence[BytecodeJob], cache: Path | None = None) -> None:
    """Write each job's archive compiled to bytecode by the site's Pyodide (``bytecode.mjs``
    under Node: one start of the interpreter for all the jobs that the cache lacks).

    A result is kept in ``cache`` under a name made from everything it depends on: the sources,
    the compiler's code and the Pyodide release.
    """
    compiler = hashlib.sha256()
    for part in (BYTECODE_SCRIPT, BYTECODE_SCRIPT.with_suffix(".py"), PYODIDE / "package.json"):
        compiler.update(part.read_bytes())
    pending: list[tuple[BytecodeJob, Path | None]] = []
    for job in jobs:
        key = compiler.copy()
        key.update(job.source.read_bytes())
        key.update((job.prefix or "").encode())
        cached = cache / f"{job.source.stem}-{key.hexdigest()[:16]}.pyc.zip" if cache else None
        if cached is not None and cached.is_file():
            shutil.copyfile(cached, job.target)
        else:
            pending.append((job, cached))
    if not pending:
        return
    node = shutil.which("node")
    if node is None:
        raise SiteCheckError(
            "Node.js is needed to compile the checker's Python (run scripts/setup, "
            "or install Node.js)"
        )
    request = [
        {"source": str(job.source), "target": str(job.target), "prefix": job.prefix}
        for job, _ in pending
    ]
    try:
        run = subprocess.run(
            [node, str(BYTECODE_SCRIPT), str(PYODIDE), json.dumps(request)],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise SiteCheckError("compiling the checker's Python took over 10 minutes") from exc
    if run.returncode != 0:
        detail = " | ".join(run.stderr.strip().splitlines()[-3:])
        raise SiteCheckError(f"compiling the checker's Python failed: {detail}")
    for job, cached in pending:
        if cached is not None:
            _keep(job.target, cached)


def _written(target: Path, write: Callable[[Path], None]) -> None:
    partial = target.with_name(target.name + ".part")
    write(partial)
    partial.replace(target)


def install_runtime(site_dir: Path) -> None:
    """Write into the built site what the checker needs at run time (see the module's doc).

    ``<site>/assets/checker/pyodide/``: the runtime; ``<site>/assets/checker/schotten-engine.zip``:
    the engine core; ``<site>/checker-sw.js``: the service worker that keeps them. The checker's
    own scripts and stylesheet come from ``site_src/assets/checker/`` with the other pages'
    files, copied before this runs.
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
    _worker(site_dir)
    runtime.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, runtime / name)
    _written(runtime / LOCK_FILE, lambda p: write_lock_file(PYODIDE / LOCK_FILE, p))
    with tempfile.TemporaryDirectory(prefix="schotten-runtime-") as work:
        stdlib_source, engine_source = Path(work) / STDLIB_ZIP, Path(work) / ENGINE_ZIP
        write_stdlib_zip(PYODIDE / STDLIB_ZIP, stdlib_source)
        write_engine_zip(engine_source)
        stdlib, engine = runtime / STDLIB_ZIP, target / ENGINE_ZIP
        compiled = [
            BytecodeJob(stdlib_source, stdlib.with_name(stdlib.name + ".part"), None),
            BytecodeJob(engine_source, engine.with_name(engine.name + ".part"), ENGINE_PATH),
        ]
        write_bytecode(compiled, CACHE)
        for job in compiled:
            job.target.replace(job.target.with_name(job.target.name.removesuffix(".part")))
    for folder in (runtime, target):
        for path in sorted(folder.iterdir()):
            if path.suffix in GZIP_SUFFIXES and path.stat().st_size >= GZIP_MIN_BYTES:
                write_gzip_copy(path, CACHE)
    write_service_worker(site_dir)


def kept_files(site_dir: Path) -> list[Path]:
    """The files the engine's worker loads, which the service worker keeps: the worker, the
    engine archive, what Pyodide fetches as it starts (its ``package.json`` is never fetched)."""
    checker = Path(site_dir) / CHECKER_DIR
    runtime = Path(site_dir) / RUNTIME_DIR
    loaded = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", STDLIB_ZIP, LOCK_FILE)
    return [_worker(site_dir), checker / ENGINE_ZIP, *(runtime / name for name in loaded)]


def _worker(site_dir: Path) -> Path:
    worker = Path(site_dir) / CHECKER_DIR / WORKER
    if not worker.is_file():
        raise SiteCheckError(f"{worker}: missing (the checker's scripts were not copied first)")
    return worker


def service_worker_manifest(site_dir: Path) -> dict[str, object]:
    """What the service worker is told: each kept file with its digest, its type and its gzip
    copy; the version, a digest of every file of the checker (its own code included), changes
    with any of them."""
    site = Path(site_dir)
    files: dict[str, dict[str, str]] = {}
    for path in kept_files(site):
        entry = {
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "type": CONTENT_TYPES.get(path.suffix, "application/octet-stream"),
        }
        packed = path.with_name(path.name + ".gz")
        if packed.is_file():
            entry["packed"] = packed.relative_to(site).as_posix()
        files[path.relative_to(site).as_posix()] = entry
    version = hashlib.sha256(SERVICE_WORKER_SOURCE.read_bytes())
    for path in sorted((site / CHECKER_DIR).rglob("*")):
        if path.is_file():
            version.update(path.relative_to(site).as_posix().encode() + b"\0")
            version.update(hashlib.sha256(path.read_bytes()).digest())
    return {"version": version.hexdigest()[:20], "files": files}


def write_service_worker(site_dir: Path) -> None:
    """``<site>/checker-sw.js``: the service worker's code after this build's manifest."""
    manifest = json.dumps(service_worker_manifest(site_dir), separators=(",", ":"), sort_keys=True)
    code = SERVICE_WORKER_SOURCE.read_text(encoding="utf-8")
    text = f"const CHECKER = {manifest};\n\n{code}"
    _written(Path(site_dir) / SERVICE_WORKER, lambda path: _write_text(path, text))


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def first_open_bytes(site_dir: Path) -> int:
    """The bytes a reader's first opening of the checker downloads where the service worker
    runs: the worker and its script, each kept file as it travels (its gzip copy if it has one,
    whatever the host's own compression)."""
    site = Path(site_dir)
    total = (site / SERVICE_WORKER).stat().st_size
    for path in kept_files(site):
        packed = path.with_name(path.name + ".gz")
        total += (packed if packed.is_file() else path).stat().st_size
    return total


@dataclass(frozen=True)
class Shipped:
    """What the pages say of the checker's runtime: the bytes of a first opening
    (:func:`first_open_bytes`) and the version of its files (:func:`service_worker_manifest`),
    which the page asks the service worker for."""

    first_open_bytes: int
    version: str


def shipped(static: Path) -> Shipped:
    """The runtime this build installs, measured on a copy made aside (the pages are written
    before the runtime is installed, and every step gives the same bytes from the same sources);
    ``static``: the checker's own files (site_src/assets/checker)."""
    with tempfile.TemporaryDirectory(prefix="schotten-shipped-") as work:
        site = Path(work)
        shutil.copytree(static, site / CHECKER_DIR)
        install_runtime(site)
        version = str(service_worker_manifest(site)["version"])
        return Shipped(first_open_bytes(site), version)
