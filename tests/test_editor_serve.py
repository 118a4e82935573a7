"""``scripts/serve`` shows every refusal every time, in the terminal and in the page served: the
real ``mkdocs serve`` on a small copy of the project, a case broken, fixed, then broken again."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_site import minimal_project

from schotten.site.serve import BANNER_ID, show_refusal

ROOT = Path(__file__).resolve().parents[1]
REFUSAL = "reason opponent-can-beat means the stone is refused, not granted"
REFUSED = "schotten: refused; the "  # once per refused rebuild


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Served:
    """A running ``scripts/serve`` and everything it has written to its terminal."""

    def __init__(self, project: Path) -> None:
        self.port = _free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "CI")}
        env["PYTHON"] = sys.executable
        self.child = subprocess.Popen(
            ["sh", str(project / "scripts" / "serve"), "-a", f"127.0.0.1:{self.port}"],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.child.stdout is not None
        for line in self.child.stdout:
            self.lines.append(line)

    def log(self) -> str:
        return "".join(self.lines)

    def wait_for(self, done: Callable[[], bool], what: str, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while not done():
            if self.child.poll() is not None or time.monotonic() > end:
                raise AssertionError(f"no {what}:\n{self.log()}")
            time.sleep(0.2)

    def page(self) -> str:
        url = f"http://127.0.0.1:{self.port}/"
        with urllib.request.urlopen(url, timeout=30) as answer:
            text: str = answer.read().decode("utf-8")
            return text


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Served, Path]]:
    project = minimal_project(tmp_path / "project")
    server = Served(project)
    try:
        server.wait_for(lambda: "Serving on" in server.log(), "server")
        yield server, project / "cases" / "hand-is-not-proof.yaml"
    finally:
        server.child.terminate()
        server.child.wait(timeout=60)
        server.reader.join(timeout=60)
        if server.child.stdout is not None:  # closed here: an unclosed pipe is a warning
            server.child.stdout.close()


def test_serve_shows_a_repeated_refusal_every_time_and_in_the_page(
    served: tuple[Served, Path],
) -> None:
    server, case = served
    good = case.read_text(encoding="utf-8")
    broken = good.replace("verdict: refused", "verdict: granted")
    assert broken != good
    assert BANNER_ID not in server.page()
    seen = []
    for attempt in (1, 2):
        case.write_text(broken, encoding="utf-8")
        server.wait_for(lambda n=attempt: server.log().count(REFUSED) >= n, f"refusal {attempt}")
        seen.append(server.log().count(REFUSAL))
        server.wait_for(lambda: BANNER_ID in server.page(), "refusal in the page")
        assert REFUSAL in server.page()
        reloads = server.log().count("Reloading browsers")
        case.write_text(good, encoding="utf-8")
        server.wait_for(
            lambda r=reloads: server.log().count("Reloading browsers") > r, "rebuild after the fix"
        )
        assert BANNER_ID not in server.page()
    # MkDocs shows the message the first time only; the hook shows it every time.
    assert seen[0] >= 1 and seen[1] > seen[0]


def test_a_refusal_replaces_the_last_one_in_each_page(tmp_path: Path) -> None:
    (tmp_path / "es").mkdir()
    for page in (tmp_path / "index.html", tmp_path / "es" / "index.html"):
        page.write_text('<html><body class="x"><p>page</p></body></html>', encoding="utf-8")
    assert show_refusal(tmp_path, "first <refusal>") == 2
    assert show_refusal(tmp_path, "second") == 2
    text = (tmp_path / "es" / "index.html").read_text(encoding="utf-8")
    assert text.count(BANNER_ID) == 1 and "second" in text and "first" not in text
    assert text.startswith('<html><body class="x"><div id="schotten-refusal" role="alert"')
