"""The host's handle on one sandbox process (see runtime/server.py for the protocol).

A reader thread turns the process's answers into per-request events, so several runs
can be waited for at once. Started with its own session, so closing it can kill the
whole wrapper tree (bwrap, the server, its children) as one process group.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from pathlib import Path
from typing import Any

from pydantic import BaseModel


class ServerError(RuntimeError):
    """The sandbox process could not start or died; the message is one line.
    `fatal` means the interpreter itself cannot serve (torch does not import)."""

    def __init__(self, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


class Answer(BaseModel):
    """The server's "done" message for one run."""

    id: str
    pid: int | None = None
    server_pid: int | None = None
    exit_code: int | None = None
    signal: int | None = None
    timed_out: bool = False
    output_limited: bool = False
    wall_s: float = 0.0
    stdout: str = ""
    stderr: str = ""
    stdout_bytes: int = 0
    stderr_bytes: int = 0


class SandboxProcess:
    def __init__(self, argv: list[str], *, env: dict[str, str], cwd: Path, log: Path) -> None:
        self._log_path = log
        with open(log, "ab") as log_fh:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log_fh,
                env=env,
                cwd=cwd,
                start_new_session=True,
            )
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._info: dict[str, Any] = {}
        self._fatal: str | None = None
        self._answers: dict[str, Answer] = {}
        self._waiting: dict[str, threading.Event] = {}
        self._dead = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return not self._dead and self._proc.poll() is None

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for raw in self._proc.stdout:
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            event = message.get("event")
            if event == "ready":
                self._info = message
                self._ready.set()
            elif event == "fatal":
                self._fatal = str(message.get("message", "the sandbox process failed"))
                self._ready.set()
            elif event == "done":
                answer = Answer.model_validate(message)
                with self._lock:
                    self._answers[answer.id] = answer
                    waiter = self._waiting.get(answer.id)
                if waiter:
                    waiter.set()
        self._dead = True
        self._ready.set()
        with self._lock:
            for waiter in self._waiting.values():
                waiter.set()

    def wait_ready(self, timeout: float) -> dict[str, Any]:
        """The ready message; ServerError with the reason when the process cannot serve."""
        if not self._ready.wait(timeout):
            self.close()
            raise ServerError(f"the sandbox process did not start within {timeout:.0f} s")
        if self._fatal is not None:
            raise ServerError(self._fatal, fatal=True)
        if not self._info:
            raise ServerError(f"the sandbox process exited at start: {self._log_tail()}")
        return self._info

    def submit(self, request: dict[str, Any]) -> threading.Event:
        event = threading.Event()
        with self._lock:
            self._waiting[request["id"]] = event
        line = (json.dumps(request) + "\n").encode()
        try:
            assert self._proc.stdin is not None
            with self._lock:
                self._proc.stdin.write(line)
                self._proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise ServerError(f"the sandbox process is gone ({e})") from e
        return event

    def result(self, run_id: str, event: threading.Event, timeout: float) -> Answer:
        """The answer for `run_id`; ServerError when the process died or stopped answering."""
        if not event.wait(timeout):
            raise ServerError(f"the sandbox process gave no answer within {timeout:.0f} s")
        with self._lock:
            self._waiting.pop(run_id, None)
            answer = self._answers.pop(run_id, None)
        if answer is None:
            raise ServerError(f"the sandbox process died during the run: {self._log_tail()}")
        return answer

    def _log_tail(self) -> str:
        try:
            lines = self._log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return "no log"
        return lines[-1] if lines else "no output"

    def close(self, grace_s: float = 5.0) -> None:
        """EOF tells the server to kill its children and exit; the group is killed after."""
        try:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
        except OSError:
            pass
        try:  # a process still starting (importing torch) has no runs to stop: no grace
            self._proc.wait(timeout=grace_s if self._ready.is_set() else 0)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self._proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        self._reader.join(timeout=1)
