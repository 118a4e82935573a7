"""Talking to an engine: in this process, or a command started with pipes and a time limit.

An engine that crashes, hangs or answers something that is not a JSON object raises
:class:`EngineFailure` with what happened (and the end of its standard error); the process is
stopped. Nothing here ever waits without a limit.

>>> engine = LocalEngine()
>>> engine.ask({"type": "hello", "protocol": PROTOCOL})["engine"]
'schotten (reference)'
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import subprocess
import threading
from collections import deque
from typing import IO, Any, Protocol

from schotten.conformance.protocol import ENGINE_NAME, handle
from schotten.conformance.wire import PROTOCOL, dumps


class EngineFailure(Exception):
    """The engine crashed, hung, or answered something that is not a protocol answer."""

    def __init__(self, what: str, message: str) -> None:
        super().__init__(message)
        self.what = what  # crashed | hung | nonsense | cannot-start


class Engine(Protocol):
    name: str

    def ask(self, request: dict[str, Any]) -> dict[str, Any]: ...

    def close(self) -> None: ...


class LocalEngine:
    """This engine, answering in this process (the tests' reference, and the fastest path)."""

    name = ENGINE_NAME

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        # Through JSON text both ways, as over a pipe, so that nothing is shared by reference.
        answer: dict[str, Any] = json.loads(dumps(handle(json.loads(dumps(request)))))
        return answer

    def close(self) -> None:
        pass


class ProcessEngine:
    """An engine command speaking the protocol on its standard input and output."""

    def __init__(self, command: str, timeout: float) -> None:
        self.command = command
        self.timeout = timeout
        self.name = command
        self._asked = 0
        argv = shlex.split(command)
        if not argv:
            raise EngineFailure("cannot-start", "the engine command is empty")
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,
            )
        except OSError as error:
            raise EngineFailure(
                "cannot-start", f"cannot start the engine {command!r}: {error.strerror or error}"
            ) from None
        assert self._process.stdout is not None and self._process.stderr is not None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._errors: deque[str] = deque(maxlen=12)
        threading.Thread(target=self._pump, args=(self._process.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self._process.stderr,), daemon=True).start()

    def _pump(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._lines.put(line)
        except (OSError, ValueError):  # closed under it when the engine is stopped
            pass
        self._lines.put(None)

    def _drain(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._errors.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass

    def ask(self, request: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """One request, one answer within ``timeout`` seconds (default: the engine's)."""
        limit = self.timeout if timeout is None else timeout
        self._asked += 1
        ident = self._asked
        line = dumps({**request, "id": ident})
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._crashed() from None
        try:
            text = self._lines.get(timeout=limit)
        except queue.Empty:
            self.close()
            raise EngineFailure(
                "hung",
                f"no answer within {limit:g} s to a {request.get('type')} request "
                "(the engine was stopped)" + self._stderr_tail(),
            ) from None
        if text is None:
            raise self._crashed()
        try:
            answer = json.loads(text)
        except ValueError:
            raise EngineFailure(
                "nonsense", f"answered a line that is not JSON: {text[:200]!r}"
            ) from None
        if not isinstance(answer, dict):
            raise EngineFailure("nonsense", f"answered JSON that is not an object: {text[:200]!r}")
        if answer.get("id") != ident:
            raise EngineFailure(
                "nonsense", f"answered id {answer.get('id')!r} to request id {ident}: out of step"
            )
        del answer["id"]
        return answer

    def _crashed(self) -> EngineFailure:
        try:
            code = self._process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self.close()
        status = "closed its output" if code is None else f"exited with status {code}"
        return EngineFailure("crashed", f"the engine {status}" + self._stderr_tail())

    def _stderr_tail(self) -> str:
        lines = list(self._errors)
        if not lines:
            return ""
        return "; its last words on stderr:\n    " + "\n    ".join(lines)

    def close(self) -> None:
        process = self._process
        if process.poll() is None:
            try:
                if process.stdin is not None:
                    process.stdin.close()
                process.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if process.poll() is None:
            try:
                os.killpg(process.pid, 9)  # the engine's own process group: nothing else
            except OSError:
                process.kill()
            process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def handshake(engine: Engine, timeout: float | None = None) -> str:
    """Say hello; the engine's name. An engine of another protocol version fails here.

    ``timeout`` (a process engine's): the time the engine may take to start and answer.
    """
    hello = {"type": "hello", "protocol": PROTOCOL}
    answer = engine.ask(hello, timeout) if isinstance(engine, ProcessEngine) else engine.ask(hello)
    if answer.get("protocol") != PROTOCOL:
        detail = answer.get("message") or answer.get("protocol")
        raise EngineFailure("nonsense", f"the engine does not speak {PROTOCOL} ({detail!r})")
    name = answer.get("engine")
    return name if isinstance(name, str) and name else "(unnamed)"
