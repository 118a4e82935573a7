"""Talking to an engine: in this process, or a command started with pipes and a time limit.

A process engine is read and written by one loop over non-blocking pipes with a deadline, so
nothing here waits past its limit, whatever the engine does: stop reading its input, keep its
output open through a helper, write a line without end or megabytes on its standard error.
What it writes is kept within bounds: a line of at most
:data:`~schotten.conformance.wire.MAX_LINE` bytes, read with the project's strict reader
(:mod:`schotten.json_input`); the last few lines of its standard error, each cut short. A line
on its standard output that is not the answer asked for (a log line, an answer of another id)
is counted and skipped. An engine that crashes, hangs or answers nothing readable raises
:class:`EngineFailure`, and its whole process group is stopped.

>>> engine = LocalEngine()
>>> engine.ask({"type": "hello", "protocol": PROTOCOL})["engine"]
'schotten (reference)'
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import signal
import subprocess
import time
from collections import deque
from typing import Any, Protocol

from schotten import json_input
from schotten.conformance.capabilities import Capabilities
from schotten.conformance.protocol import ENGINE_NAME, Session, handle
from schotten.conformance.shown import shown
from schotten.conformance.wire import MAX_LINE, MAX_VALUES, PROTOCOL, dumps

STDERR_LINES = 8  # the last lines of standard error kept for a report
STDERR_WIDTH = 200  # characters kept of each
STRAY_SHOWN = 3  # stray lines of standard output kept, as examples
_CHUNK = 64 * 1024
_TICK = 0.05  # seconds between looks at whether the engine is still alive


class EngineFailure(Exception):
    """The engine crashed, hung, or answered something that is not a protocol answer."""

    def __init__(self, what: str, message: str) -> None:
        super().__init__(message)
        self.what = what  # crashed | hung | nonsense | cannot-start
        self.request: dict[str, Any] | None = None  # the request whose answer did not come


class Engine(Protocol):
    name: str

    def ask(self, request: dict[str, Any]) -> dict[str, Any]: ...

    def close(self) -> None: ...


def ask_many(engine: Engine, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The answers to ``requests``, in order: sent all at once when the engine can take them so
    (requests that do not depend on the answers before them), else one by one."""
    many = getattr(engine, "ask_many", None)
    if many is not None:
        answers: list[dict[str, Any]] = many(requests)
        return answers
    answers = []
    for request in requests:
        try:
            answers.append(engine.ask(request))
        except EngineFailure as failure:
            failure.request = request
            raise
    return answers


class LocalEngine:
    """This engine, answering in this process (the tests' reference, and the fastest path)."""

    name = ENGINE_NAME

    def __init__(self) -> None:
        self._session = Session()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        # Through JSON text both ways, as over a pipe, so that nothing is shared by reference.
        answer = handle(json.loads(dumps(request)), self._session)
        copied: dict[str, Any] = json.loads(dumps(answer))
        return copied

    def close(self) -> None:
        pass


def engine_argv(command: str) -> list[str]:
    """The words of an engine command, as a shell would split them; a mistake in it (an
    unbalanced quote, nothing at all) is :class:`EngineFailure` ``cannot-start``."""
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise EngineFailure(
            "cannot-start", f"the engine command '{shown(command)}' cannot be read: {error}"
        ) from None
    if not argv:
        raise EngineFailure("cannot-start", "the engine command is empty")
    return argv


class ProcessEngine:
    """An engine command speaking the protocol on its standard input and output."""

    def __init__(self, command: str, timeout: float) -> None:
        self.command = command
        self.timeout = timeout
        self.name = command
        self.stray_lines = 0  # lines of standard output that were not the answer asked for
        self.stray_examples: list[str] = []
        self.stderr_bytes = 0
        self._asked = 0
        argv = engine_argv(command)
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,  # its own process group: stopped whole, helpers too
            )
        except OSError as error:
            raise EngineFailure(
                "cannot-start",
                f"cannot start the engine '{shown(command)}': {error.strerror or error}",
            ) from None
        stdin, stdout, stderr = self._process.stdin, self._process.stdout, self._process.stderr
        assert stdin is not None and stdout is not None and stderr is not None
        self._in, self._out, self._err = stdin.fileno(), stdout.fileno(), stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._open = {self._out, self._err}
        self._outgoing = bytearray()
        self._line = bytearray()  # the start of the line being read from standard output
        self._skipping = 0  # bytes of an overlong line skipped so far (0: none)
        self._lines: deque[bytes] = deque()
        self._errors: deque[str] = deque(maxlen=STDERR_LINES)
        self._error_line = bytearray()
        self._closed = False

    # -- one request -----------------------------------------------------------------------

    def ask(self, request: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """One request, one answer within ``timeout`` seconds (default: the engine's)."""
        limit = self.timeout if timeout is None else timeout
        return self._await(self._send(request), request, limit, whole=True)

    def ask_many(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The answers to ``requests``, sent at once and answered in order: each answer within
        the time limit of the one before it. Every answer is read, even after a wrong one, so
        that none is left to be taken for a stray line later."""
        idents = [self._send(request) for request in requests]
        answers = []
        for ident, request in zip(idents, requests, strict=True):
            try:
                answers.append(self._await(ident, request, self.timeout, whole=False))
            except EngineFailure as failure:
                failure.request = request
                raise
        return answers

    def send(self, request: dict[str, Any]) -> int:
        """Send a request without waiting: its id, for :meth:`receive`."""
        return self._send(request)

    def receive(self, ident: int, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to a request sent by :meth:`send` (answers come in the order asked)."""
        try:
            return self._await(ident, request, self.timeout, whole=False)
        except EngineFailure as failure:
            failure.request = request
            raise

    def _send(self, request: dict[str, Any]) -> int:
        self._asked += 1
        self._outgoing += (dumps({**request, "id": self._asked}) + "\n").encode("utf-8")
        return self._asked

    def _await(
        self, ident: int, request: dict[str, Any], limit: float, *, whole: bool
    ) -> dict[str, Any]:
        """The answer of id ``ident``, within ``limit`` seconds; ``whole``: and the requests
        all written."""
        deadline = time.monotonic() + limit
        strays_before = self.stray_lines
        kind = shown(str(request.get("type")), 20)
        answer = None
        while True:
            while self._lines and answer is None:
                answer = self._answer(self._lines.popleft(), ident)
            if answer is not None and (not whole or not self._outgoing):
                return answer
            if time.monotonic() >= deadline:
                self.close()
                if self._outgoing:
                    what = f"did not read a {kind} request within {limit:g} s"
                else:
                    what = f"no answer within {limit:g} s to a {kind} request"
                strays = self.stray_lines - strays_before
                if strays:
                    raise EngineFailure(
                        "nonsense",
                        f"{what}, only {strays} line(s) that are not its answer "
                        f"({self._strays_shown()}; the engine was stopped)" + self.stderr_tail(),
                    )
                raise EngineFailure("hung", f"{what} (the engine was stopped)" + self.stderr_tail())
            self._round(deadline)

    def _answer(self, line: bytes, ident: int) -> dict[str, Any] | None:
        """The answer to request ``ident`` on this line, or ``None`` (the line is a stray)."""
        if not line.strip():
            return None
        try:
            answer = json_input.loads(line, MAX_LINE, MAX_VALUES)
        except json_input.JsonInputError as error:
            self._stray(f"not JSON ({error.message}): {shown(line.decode('utf-8', 'replace'))}")
            return None
        if not isinstance(answer, dict):
            self._stray(f"JSON that is not an object: {shown(dumps(answer))}")
            return None
        got = answer.get("id")
        if type(got) is not int or got != ident:
            self._stray(f"an answer of id {shown(dumps(got), 40)} to request id {ident}")
            return None
        del answer["id"]
        return answer

    def _stray(self, what: str) -> None:
        self.stray_lines += 1
        if len(self.stray_examples) < STRAY_SHOWN:
            self.stray_examples.append(what)

    def _strays_shown(self) -> str:
        return "; ".join(self.stray_examples[-STRAY_SHOWN:])

    # -- the pipes -------------------------------------------------------------------------

    def _round(self, deadline: float) -> None:
        """Write what can be written, read what can be read, for at most one tick."""
        wait = max(0.0, min(deadline - time.monotonic(), _TICK))
        writers = [self._in] if self._outgoing else []
        try:
            readable, writable, _ = select.select(sorted(self._open), writers, [], wait)
        except (OSError, ValueError):
            raise self._crashed() from None
        if writable:
            try:
                sent = os.write(self._in, self._outgoing[:_CHUNK])
            except BlockingIOError:
                sent = 0
            except OSError:  # a broken pipe: it is gone
                raise self._crashed() from None
            del self._outgoing[:sent]
        self._read(readable)
        if self._out not in self._open and not self._lines:
            raise self._crashed()
        if not readable and self._process.poll() is not None:
            # Gone, though a helper of its may keep the pipes open: what it wrote before it
            # exited is read, then nothing more will come.
            while not self._lines and self._open:
                ready, _, _ = select.select(sorted(self._open), [], [], 0)
                if not ready:
                    break
                self._read(ready)
            if not self._lines:
                raise self._crashed()

    def _read(self, readable: list[int]) -> None:
        for fd in readable:
            try:
                data = os.read(fd, _CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                self._open.discard(fd)
            elif fd == self._out:
                self._take_output(data)
            else:
                self._take_error(data)

    def _take_output(self, data: bytes) -> None:
        while data:
            end = data.find(b"\n")
            piece, data = (data, b"") if end < 0 else (data[:end], data[end + 1 :])
            if self._skipping:
                self._skipping += len(piece)
            else:
                self._line += piece
                if len(self._line) > MAX_LINE:
                    self._skipping = len(self._line)
                    self._line.clear()
                    self._stray(f"a line of more than {MAX_LINE:,} bytes (skipped unread)")
            if end < 0:
                return
            if self._skipping:
                self._skipping = 0
            else:
                self._lines.append(bytes(self._line))
                self._line.clear()

    def _take_error(self, data: bytes) -> None:
        self.stderr_bytes += len(data)
        while data:
            end = data.find(b"\n")
            piece, data = (data, b"") if end < 0 else (data[:end], data[end + 1 :])
            room = STDERR_WIDTH * 4 - len(self._error_line)
            self._error_line += piece[: max(room, 0)]
            if end < 0:
                return
            text = self._error_line.decode("utf-8", "replace")
            self._errors.append(shown(text, STDERR_WIDTH))
            self._error_line.clear()

    def _crashed(self) -> EngineFailure:
        try:
            code = self._process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            code = None
        self.close()
        status = "closed its output" if code is None else f"exited with status {code}"
        return EngineFailure("crashed", f"the engine {status}" + self.stderr_tail())

    def stderr_tail(self) -> str:
        """The last lines of its standard error, cut short, as the end of a message."""
        lines = list(self._errors)
        if self._error_line:
            lines.append(shown(self._error_line.decode("utf-8", "replace"), STDERR_WIDTH))
        if not lines:
            return ""
        size = f" ({self.stderr_bytes:,} bytes in all)" if self.stderr_bytes > 4096 else ""
        return f"; its last words on stderr{size}:\n    " + "\n    ".join(lines)

    def close(self) -> None:
        """Stop the engine and every process of its group; never waits long."""
        if self._closed:
            return
        self._closed = True
        process = self._process
        if process.poll() is None:
            with contextlib.suppress(OSError):
                os.close(self._in)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=0.5)
        else:
            with contextlib.suppress(OSError):
                os.close(self._in)
        # The group outlives its leader when a helper keeps running: stop it whole, always.
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        for fd in (self._out, self._err):
            with contextlib.suppress(OSError):
                os.close(fd)
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()


def handshake(engine: Engine, timeout: float | None = None) -> tuple[str, Capabilities]:
    """Say hello; the engine's name (made safe to print) and what it declares it supports.
    An engine of another protocol version, or with capabilities that cannot be read, fails.

    ``timeout`` (a process engine's): the time the engine may take to start and answer.
    """
    hello = {"type": "hello", "protocol": PROTOCOL}
    answer = engine.ask(hello, timeout) if isinstance(engine, ProcessEngine) else engine.ask(hello)
    if answer.get("protocol") != PROTOCOL:
        detail = answer.get("message") or answer.get("protocol")
        raise EngineFailure(
            "nonsense", f"the engine does not speak {PROTOCOL} ({shown(dumps(detail), 120)})"
        )
    try:
        capabilities = Capabilities.from_hello(answer)
    except ValueError as error:
        raise EngineFailure("nonsense", f"hello: {error}") from None
    name = answer.get("engine")
    return (shown(name, 80) if isinstance(name, str) and name else "(unnamed)"), capabilities
