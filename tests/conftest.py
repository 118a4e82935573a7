"""What every test shares: the families (markers) given by place, the ``quick`` Hypothesis
profile, and the site built once per run for the tests that only read it.

Families (declared in pyproject.toml, ``--strict-markers``), by folder or file:

- ``browser``: a real Chromium through Playwright (``tests/browser/``);
- ``site_build``: a strict ``mkdocs build`` or ``mkdocs serve`` of the project or a copy of it;
- ``pyodide``: the in-page checker's Python runtime under Node or in the browser;
- ``dask``: a Dask cluster (``schotten verify``);
- ``engines``: engines started as programs by the conformance runner;
- ``package``: the wheel built and installed in a bare virtual environment;
- ``gate_run``: the gate script run whole, by a user who is not root;
- ``fuzz``, ``hostile``, ``verification``: the families the file names say.

The fast lane (``scripts/test --fast``) leaves out browser, site_build, pyodide, dask, package,
engines, hostile and gate_run (the lane runs the gate's fast part itself), and runs the ``quick``
profile (see ``tests/strength.py``).

The two builds of the real project every reading test shares (``relative_site``, without
``SITE_URL``, and ``built_site``, addressed to a local server) are made once per run: under
pytest-xdist the first worker that needs one builds it, under a lock, in a folder all workers see;
the others wait for it and read the same files. A worker that finds the addressed build under way
builds the relative one meanwhile, so that no core waits idle through a build.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings
from sites import mkdocs_build
from strength import QUICK_EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
BASE_PATH = "schotten"  # as in mkdocs.yml's site_url

settings.register_profile("quick", settings(settings.default, max_examples=QUICK_EXAMPLES))
if os.environ.get("SCHOTTEN_HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["SCHOTTEN_HYPOTHESIS_PROFILE"])

PYODIDE = {"test_bytecode", "test_runtime", "test_conformance_checker"}
SITE_BUILDS = {
    "test_site",
    "test_site_prose",
    "test_seo",
    "test_gate_publish",
    "test_editor_serve",
    "test_hostile_gate",
}
DASK = {"test_verify_run", "test_hostile_verify"}
ENGINES = {
    "test_conformance_agreement",
    "test_conformance_alternatives",
    "test_conformance_contract",
    "test_conformance_divide",
    "test_conformance_incremental",
    "test_conformance_outcomes",
    "test_conformance_run",
    "test_conformance_protocol",
    "test_hostile_runner",
    "test_hostile_server",
}

# The engines there are programs the conformance tests run, not test modules.
collect_ignore_glob = ["conformance_engines/*.py"]


def families(path: Path) -> set[str]:
    """The markers of the tests in ``path``, by folder and file name."""
    name = path.stem
    found: set[str] = set()
    if "browser" in path.parts:
        found.add("browser")
    if name in PYODIDE or name.startswith("test_checker_"):
        found.add("pyodide")
    if name in SITE_BUILDS:
        found.add("site_build")
    if name in DASK:
        found.add("dask")
    if name in ENGINES:
        found.add("engines")
    if name == "test_package":
        found.add("package")
    if name == "test_gate_as_user":
        found.add("gate_run")
    if name.startswith(("test_fuzz_", "test_gate_fuzz")):
        found.add("fuzz")
    if name.startswith("test_hostile_"):
        found |= {"hostile", "fuzz"}
    if name.startswith("test_verify_"):
        found.add("verification")
    return found


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Conftest files are loaded as conftests, never collected as modules (--doctest-modules
    would import this one under a name another conftest already holds)."""
    return True if collection_path.name == "conftest.py" else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for family in sorted(families(item.path)):
            item.add_marker(family)


# -- the site, built once per run -----------------------------------------------------------------

SERVER = """
import functools, http.server, os, sys, threading, time

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass

www, owner = sys.argv[1], int(sys.argv[2])
handler = functools.partial(Quiet, directory=www)
httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
print(httpd.server_address[1], flush=True)

def watch():
    # The run that started this server has ended (or was killed): stop with it.
    while True:
        time.sleep(1)
        try:
            os.kill(owner, 0)
        except OSError:
            httpd.shutdown()
            return

threading.Thread(target=watch, daemon=True).start()
httpd.serve_forever()
"""


@pytest.fixture(scope="session")
def shared_folder(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every worker of this run sees (the run's own temporary folder)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if hasattr(request.config, "workerinput") else base


def _run_owner(config: pytest.Config) -> int:
    """The process that lives as long as the whole run: xdist's controller, or this one."""
    return os.getppid() if hasattr(config, "workerinput") else os.getpid()


_SERVER = pytest.StashKey["subprocess.Popen[str]"]()


class _Once:
    """A file lock: the first process through builds, the others find it done."""

    def __init__(self, folder: Path, name: str) -> None:
        self.folder = folder / name
        self.lock = folder / f"{name}.lock"

    def __enter__(self) -> Path:
        self.handle = self.lock.open("w")
        fcntl.flock(self.handle, fcntl.LOCK_EX)
        failed = self.folder / "failed.txt"
        if failed.exists():
            pytest.fail(f"the shared build failed (in another worker):\n{failed.read_text()}")
        return self.folder

    def busy(self) -> bool:
        """Whether another process holds the lock now (building what it guards)."""
        with self.lock.open("w") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(handle, fcntl.LOCK_UN)
        return False

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.handle, fcntl.LOCK_UN)
        self.handle.close()


def _build(folder: Path, out: Path, site_url: str | None = None) -> None:
    run = mkdocs_build(ROOT, out, site_url=site_url)
    if run.returncode != 0:
        (folder / "failed.txt").write_text(run.stdout + run.stderr, encoding="utf-8")
        pytest.fail(run.stdout + run.stderr)
    (folder / "done").touch()


@pytest.fixture(scope="session")
def relative_site(shared_folder: Path) -> Path:
    """The site built without SITE_URL (as anyone building it gets: every link relative), once
    per run. Read it, or copy it before changing anything."""
    return _relative_site(shared_folder)


def _relative_site(shared_folder: Path) -> Path:
    with _Once(shared_folder, "relative-site") as folder:
        out = folder / "site"
        if not (folder / "done").exists():
            folder.mkdir(exist_ok=True)
            _build(folder, out)
    return out


@pytest.fixture(scope="session")
def _served(request: pytest.FixtureRequest, shared_folder: Path) -> tuple[Path, str]:
    """The folder a static server on 127.0.0.1 serves for this run, and its address with the
    site's base path (``http://127.0.0.1:PORT/schotten``, no trailing slash). The server is a
    separate process, shared by the workers, that stops when the run ends."""
    with _Once(shared_folder, "served") as folder:
        www = folder / "www"
        port_file = folder / "port"
        if not port_file.exists():
            www.mkdir(parents=True, exist_ok=True)
            server = subprocess.Popen(
                [sys.executable, "-c", SERVER, str(www), str(_run_owner(request.config))],
                stdout=subprocess.PIPE,
                text=True,
                start_new_session=True,
            )
            assert server.stdout is not None
            port_file.write_text(server.stdout.readline().strip(), encoding="utf-8")
            server.stdout.close()
            # Kept to the end of this process: the server outlives it (watched by its owner).
            request.config.stash[_SERVER] = server
        port = port_file.read_text(encoding="utf-8")
    return www, f"http://127.0.0.1:{port}/{BASE_PATH}"


@pytest.fixture(scope="session")
def built_site(_served: tuple[Path, str], shared_folder: Path) -> Path:
    """The site, built once per run with ``site_url`` the local server's address, and served
    there (``site_url`` fixture)."""
    www, url = _served
    once = _Once(www.parent, "addressed-site")
    if once.busy():
        # Another worker builds it: build the other site meanwhile (later tests read it) rather
        # than leave this core idle for the length of a build.
        _relative_site(shared_folder)
    with once as folder:
        out = www / BASE_PATH
        if not (folder / "done").exists():
            folder.mkdir(exist_ok=True)
            _build(folder, out, site_url=url + "/")
    return out


@pytest.fixture(scope="session")
def site_url(_served: tuple[Path, str], built_site: Path) -> str:
    """Where ``built_site`` is served, without a trailing slash: ``site_url + "/es/rules/"``."""
    return _served[1]
