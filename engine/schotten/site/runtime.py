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
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import zopfli.gzip  # type: ignore[import-untyped]

from schotten.site import SiteCheckError
from schotten.site.build_cache import CACHE, REPO, keep, making, put
from schotten.site.import_closure import LAZY, engine_imports, engine_sources, stdlib_closure

ENGINE = Path(__file__).resolve().parents[1]
PYODIDE = REPO / "node_modules" / "pyodide"
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
Step = Callable[[bool], bool]
"""A step of a build that another build may be making too: called with ``wait``, it says
whether it ran (:func:`run_side_by_side`)."""


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


def gzip_entry(path: Path, cache: Path) -> Path:
    """Where ``cache`` keeps the Zopfli copy of ``path`` (named by the content's hash)."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return cache / f"{path.name}-{digest}.zopfli.gz"


def write_gzip_copy(path: Path, cache: Path | None = None, *, wait: bool = True) -> bool:
    """``<path>.gz`` beside ``path``, for hosts that serve precompressed files (kept in
    ``cache`` by the content's hash: Zopfli takes seconds a megabyte). With ``wait`` false,
    returns False at once, having written nothing, while another build makes the same copy
    (see :func:`making`)."""
    target = path.with_name(path.name + ".gz")
    cached = gzip_entry(path, cache) if cache else None
    with making(cached, wait=wait) as mine:
        if not mine:
            return False
        if cached is not None and cached.is_file():
            shutil.copyfile(cached, target)
            return True
        partial = path.with_name(f"{path.name}.gz.{os.getpid()}.part")
        # One iteration: more gain a tenth of a percent for several times the time. The gzip
        # header has no name and no date: the same input gives the same bytes, build after build.
        packed = zopfli.gzip.compress(path.read_bytes(), numiterations=1)
        partial.write_bytes(packed)
        if cached is not None:
            put(cached, packed)
        partial.replace(target)
    return True


def run_side_by_side(first: Step, after: Sequence[Step], independent: Sequence[Step]) -> None:
    """Run ``first``, then ``after`` (which need it), with ``independent`` steps anywhere in
    between. A step is called with ``wait`` (see :func:`making`) and says whether it ran; one
    that another build is making is put off while this build has other steps to run, then
    waited for (it is a copy by then)."""
    pending: list[tuple[Step, bool]] = [(first, False), *((s, False) for s in independent)]
    pending += [(step, True) for step in after]
    put_off: list[Step] = []
    first_done = False
    while pending:
        ready = [item for item in pending if first_done or not item[1]]
        chosen = None
        for item in ready:
            if item[0] in put_off:
                continue
            if item[0](False):
                chosen = item
                break
            put_off.append(item[0])
        if chosen is None:  # every step left is another build's: wait for the first
            chosen = ready[0]
            chosen[0](True)
        pending.remove(chosen)
        first_done = first_done or chosen[0] is first


@dataclass(frozen=True)
class BytecodeJob:
    """An archive of sources to write as bytecode (:func:`write_bytecode`)."""

    source: Path
    target: Path
    prefix: str | None  # the archive's path in the browser; None: the standard library's own


def write_bytecode(
    jobs: Sequence[BytecodeJob], cache: Path | None = None, *, wait: bool = True
) -> bool:
    """Write each job's archive compiled to bytecode by the site's Pyodide (``bytecode.mjs``
    under Node: one start of the interpreter for all the jobs that the cache lacks).

    A result is kept in ``cache`` under a name made from everything it depends on: the sources,
    the compiler's code and the Pyodide release. With ``wait`` false, returns False at once,
    having written nothing, while another build compiles the same jobs (see :func:`making`).
    """
    compiler = hashlib.sha256()
    for part in (BYTECODE_SCRIPT, BYTECODE_SCRIPT.with_suffix(".py"), PYODIDE / "package.json"):
        compiler.update(part.read_bytes())
    entries: list[tuple[BytecodeJob, Path | None]] = []
    for job in jobs:
        key = compiler.copy()
        key.update(job.source.read_bytes())
        key.update((job.prefix or "").encode())
        cached = cache / f"{job.source.stem}-{key.hexdigest()[:16]}.pyc.zip" if cache else None
        entries.append((job, cached))
    # One lock for the jobs together (they are compiled in one start of Node).
    together = None
    if cache is not None:
        names = hashlib.sha256("\0".join(str(c) for _, c in entries).encode()).hexdigest()
        together = cache / f"bytecode-{names[:16]}"
    with making(together, wait=wait) as mine:
        if not mine:
            return False
        pending = []
        for job, cached in entries:
            if cached is not None and cached.is_file():
                shutil.copyfile(cached, job.target)
            else:
                pending.append((job, cached))
        if pending:
            _compile(pending)
    return True


def _compile(pending: Sequence[tuple[BytecodeJob, Path | None]]) -> None:
    """Compile the jobs in one start of Node, and keep each result where it has a cache entry."""
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
            keep(job.target, cached)


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

        def compile_both(wait: bool) -> bool:
            if not write_bytecode(compiled, CACHE, wait=wait):
                return False
            for job in compiled:
                job.target.replace(job.target.with_name(job.target.name.removesuffix(".part")))
            return True

        # The copies of the files already here, and of the two archives once compiled (each
        # step tells whether its file has a copy: the archives are not written yet).
        here = [p for folder in (runtime, target) for p in sorted(folder.iterdir())]
        run_side_by_side(
            compile_both,
            [_gzip_step(path) for path in (stdlib, engine)],
            [_gzip_step(p) for p in here if p not in (stdlib, engine)],
        )
    write_service_worker(site_dir)


def _packed(path: Path) -> bool:
    """Whether the site has a gzip copy of ``path``."""
    return path.suffix in GZIP_SUFFIXES and path.stat().st_size >= GZIP_MIN_BYTES


def _gzip_step(path: Path) -> Step:
    """The step of :func:`run_side_by_side` that writes the gzip copy of ``path`` if it has one."""

    def step(wait: bool) -> bool:
        return write_gzip_copy(path, CACHE, wait=wait) if _packed(path) else True

    return step


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
    ``static``: the checker's own files (site_src/assets/checker). Measured once for both
    languages' pages, and again when a file of ``static`` changes (``mkdocs serve``)."""
    stats = [(path.name, path.stat()) for path in sorted(static.iterdir())]
    stamp = tuple((name, stat.st_size, stat.st_mtime_ns) for name, stat in stats)
    return _measured(static, stamp)


@functools.lru_cache(maxsize=2)
def _measured(static: Path, stamp: tuple[tuple[str, int, int], ...]) -> Shipped:
    with tempfile.TemporaryDirectory(prefix="schotten-shipped-") as work:
        site = Path(work)
        shutil.copytree(static, site / CHECKER_DIR)
        install_runtime(site)
        version = str(service_worker_manifest(site)["version"])
        return Shipped(first_open_bytes(site), version)
