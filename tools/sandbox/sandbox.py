"""`Sandbox`: runs the repo's training path, untrusted, under limits and isolation.

Every run gets a fresh copy of the workspace, so runs cannot contaminate each other.
With `warm=True` one fork server per Sandbox (runtime/server.py) has torch imported
already and forks a child per run; with `warm=False`, or when the server cannot start,
each run starts its own sandbox process that serves exactly one run, with the same
limits, isolation and classification.

Layout of the sandbox root (the only writable place under bwrap):
    runtime/                staged in-sandbox code (read-only under bwrap)
    server/                 the server's own HOME, TMPDIR and log
    runs/<run_id>/<repo>/   the run dir: a fresh copy of the workspace, the child's cwd
    homes/<run_id>/home|tmp the run's private HOME and TMPDIR (runs/<run_id>/ holds only
                            the copy and, under bwrap, links to what lies beside the repo)
    out/<run_id>/           the trace JSON, its progress file (read while the run is in
                            flight) and the socket guard's log, outside the run dir
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import sys
import tempfile
import threading
import weakref
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

from torch_investigate.tools.sandbox import isolation as isolation_mod
from torch_investigate.tools.sandbox import surroundings
from torch_investigate.tools.sandbox.classify import RunEvidence, classify
from torch_investigate.tools.sandbox.environment import sandbox_env
from torch_investigate.tools.sandbox.models import Failure, Limits, RunResult
from torch_investigate.tools.sandbox.process import Answer, SandboxProcess, ServerError
from torch_investigate.tools.sandbox.progress import ProgressCallback, ProgressPoller, progress_path
from torch_investigate.tools.sandbox.run_files import (
    read_json_lines,
    remove_tree,
    sync_back,
)
from torch_investigate.tools.sandbox.staging import SITE_DIR, stage_runtime
from torch_investigate.tools.trace.config import Config
from torch_investigate.tools.tracefile.trace import Trace, load_trace

# Seconds the host waits beyond the wall limit before it gives up on the server
# (which enforces the limit itself: TERM, 2 s grace, KILL, 2 s to drain the pipes).
_ANSWER_MARGIN_S = 30.0
_START_TIMEOUT_S = 180.0
_MAX_SERVER_STARTS = 3


# entries beside the user's repo linked next to each run copy (a home folder can hold many)


class SandboxError(RuntimeError):
    """A bad sandbox set-up (no such workspace, unknown isolation); one line."""


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:40]


def _python_path(python: str) -> Path | None:
    found = python if os.sep in python else shutil.which(python)
    if not found:
        return None
    path = Path(os.path.abspath(found))  # not resolved: a venv's python is a symlink
    return path if path.is_file() and os.access(path, os.X_OK) else None


def _close_all(processes: list[SandboxProcess], grace_s: float = 5.0) -> None:
    for process in list(processes):  # a cold run removes its process when it ends
        process.close(grace_s)


# Every sandbox not yet stopped, for stop_all(): a Ctrl-C reaches the host only, since each
# sandbox process has a session of its own.
_LIVE: weakref.WeakSet[Sandbox] = weakref.WeakSet()


def stop_all(grace_s: float = 1.0) -> None:
    """Stop the processes of every sandbox in this process now (Ctrl-C, SIGTERM): each run
    in flight returns at once as killed instead of running on to its limit, and no run
    starts after. The folders go when each sandbox's close() runs, as the caller unwinds."""
    for sandbox in list(_LIVE):
        sandbox.stop(grace_s)


class Sandbox:
    def __init__(
        self,
        workspace_root: Path,
        *,
        python: str = sys.executable,
        limits: Limits | None = None,
        isolation: str = "auto",
        warm: bool = True,
        parallel: int = 2,
        root: Path | None = None,
        tracer: Path | None = None,
        origin: Path | None = None,
    ) -> None:
        """`root` keeps run copies and traces after close(); by default they live in a
        temporary folder removed by close(). `tracer` replaces the tracer package staged
        into the sandbox (tools/trace by default; tests stage a stub with its interface).
        `origin` is the user's repo: under bwrap (where the whole filesystem is read-only
        to the run) each run's copy sits among links to the entries beside the original,
        so `../data` resolves as it does for the user; absolute paths resolve as they are."""
        self.workspace_root = Path(workspace_root).resolve()
        self.origin = Path(origin).resolve() if origin is not None else None
        if not self.workspace_root.is_dir():
            raise SandboxError(f"workspace {self.workspace_root} is not a folder")
        try:
            self.isolation: str = isolation_mod.choose(isolation)
        except isolation_mod.IsolationError as e:
            raise SandboxError(str(e)) from e
        self.python = python
        self.limits = limits or Limits()
        self.warm = warm
        self.parallel = max(1, parallel)
        self.notes: list[str] = []  # what changed on the way (fallbacks), for the report
        # `_life` guards _closed, _active and every spawn, so stop() can end the processes
        # and know that none starts after it, and close() can then wait for runs in flight.
        self._life = threading.Condition()
        self._closed = False
        self._removed = False
        self._active = 0
        self._processes: list[SandboxProcess] = []
        self._finalizer = weakref.finalize(self, _close_all, self._processes)
        self._poller = ProgressPoller()
        self._server: SandboxProcess | None = None
        self._owns_root = root is None
        self.root = Path(tempfile.mkdtemp(prefix="ti-sandbox-")) if root is None else root
        try:
            self._set_up(python, tracer)
        except BaseException:  # Ctrl-C while setting up: leave no folder or process behind
            self.close()
            raise

    def _set_up(self, python: str, tracer: Path | None) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.root = self.root.resolve()
        self._runtime = self.root / "runtime"
        self._boot = stage_runtime(self._runtime, tracer)
        for sub in ("runs", "out", "server/home", "server/tmp"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        self._python_path = _python_path(python)
        self._interpreter_problem: str | None = None
        if self._python_path is None:
            self._interpreter_problem = f"interpreter {python} does not exist or is not executable"
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(self.parallel)
        self._server_starts = 0
        _LIVE.add(self)
        if self.warm and self._interpreter_problem is None:
            self._server = self._spawn(once=False)  # imports torch while the caller works

    # -- processes ---------------------------------------------------------------

    def _spawn(self, *, once: bool) -> SandboxProcess:
        assert self._python_path is not None
        around = surroundings.top(self.origin, self.isolation)
        argv = isolation_mod.wrap(
            self.isolation, self.root, self._runtime, self._python_path, around
        )
        argv += [str(self._python_path), str(self._boot)] + (["--once"] if once else [])
        env = sandbox_env(
            home=self.root / "server" / "home",
            tmpdir=self.root / "server" / "tmp",
            python=self._python_path,
            single_thread=self.parallel > 1,
        )
        name = "cold" if once else "server"
        with self._life:
            if self._closed:
                raise SandboxError("the sandbox is closed")
            log = self.root / "server" / f"{name}-{len(self._processes)}.log"
            process = SandboxProcess(argv, env=env, cwd=self.root, log=log)
            self._processes.append(process)
        if not once:
            self._server_starts += 1
        return process

    def _warm_server(self) -> SandboxProcess | None:
        """The ready warm server, started again if it died; None means run cold."""
        with self._lock:
            if not self.warm or self._interpreter_problem is not None:
                return None
            if self._server is not None and not self._server.alive:
                self._server.close()
                self._server = None
            if self._server is None:
                if self._server_starts >= _MAX_SERVER_STARTS:
                    self.warm = False
                    self.notes.append("the warm server kept dying; each run now starts fresh")
                    return None
                self._server = self._spawn(once=False)
            try:
                self._server.wait_ready(_START_TIMEOUT_S)
            except ServerError as e:
                self._server.close()
                self._server = None
                if e.fatal:
                    self._interpreter_problem = f"interpreter {self.python}: {e}"
                    return None
                self.warm = False
                self.notes.append(f"warm server unavailable ({e}); each run starts fresh")
                return None
            return self._server

    def server_pid(self) -> int | None:
        """The host pid of the warm server's sandbox process, once started."""
        return self._server.pid if self._server is not None else None

    # -- runs ----------------------------------------------------------------------

    def run(
        self,
        argv: list[str],
        *,
        trace_config: Config | Mapping[str, Any],
        label: str = "",
        limits: Limits | None = None,
        env: Mapping[str, str] | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> RunResult:
        """Run `argv` (without the interpreter) in a fresh copy of the workspace.

        `env` adds the user's own variables (e.g. PYTHONPATH from `PYTHONPATH=. python
        train.py`); credentials among them are dropped like any other. `on_progress` is
        called about every second while the run is in flight (from another thread) with
        the steps the tracer has counted so far.
        """
        if self._closed:
            raise SandboxError("the sandbox is closed")
        if not argv or (argv[0] == "-m" and len(argv) < 2):
            raise SandboxError(f"nothing to run: argv={argv!r}")
        with self._slots:
            with self._life:
                if self._closed:  # closed while this run waited for a slot
                    raise SandboxError("the sandbox is closed")
                self._active += 1
            run_id = f"{next(self._ids):03d}" + (f"-{_slug(label)}" if _slug(label) else "")
            progress = progress_path(self._trace_path(run_id))
            config = _as_dict(trace_config)
            try:
                with self._poller.watching(progress, on_progress):
                    return self._run(run_id, list(argv), config, label, limits or self.limits, env)
            finally:
                with self._life:
                    self._active -= 1
                    self._life.notify_all()

    def run_many(
        self, jobs: list[tuple[list[str], Config | Mapping[str, Any], str]]
    ) -> list[RunResult]:
        """Up to `parallel` runs at once; results in the order of `jobs`."""
        with ThreadPoolExecutor(max_workers=self.parallel) as pool:
            futures = [
                pool.submit(self.run, argv, trace_config=config, label=label)
                for argv, config, label in jobs
            ]
            return [f.result() for f in futures]

    def _trace_path(self, run_id: str) -> Path:
        return self.root / "out" / run_id / "trace.json"

    def _run(
        self,
        run_id: str,
        argv: list[str],
        trace_config: dict[str, Any],
        label: str,
        limits: Limits,
        extra_env: Mapping[str, str] | None,
    ) -> RunResult:
        base = self.root / "runs" / run_id
        above = surroundings.levels_above(self.origin, self.isolation)
        run_dir = base.joinpath(*above, self.workspace_root.name or "repo")
        trace_path = self._trace_path(run_id)
        out_dir = trace_path.parent
        home, tmp = self.root / "homes" / run_id / "home", self.root / "homes" / run_id / "tmp"
        for folder in (base, home, tmp, out_dir):
            folder.mkdir(parents=True)
        shutil.copytree(self.workspace_root, run_dir, symlinks=True)
        surroundings.link(self.origin, self.isolation, run_dir)
        net_log = out_dir / "network.jsonl"

        def result(
            answer: Answer | None,
            failure: Failure | None,
            warm: bool,
            loaded: tuple[Trace | None, str] | None = None,
        ) -> RunResult:
            trace, trace_error = loaded or _load_trace(trace_path)
            return RunResult(
                run_id=run_id,
                label=label,
                exit_code=answer.exit_code if answer else None,
                signal=answer.signal if answer else None,
                timed_out=answer.timed_out if answer else False,
                wall_s=answer.wall_s if answer else 0.0,
                stdout=answer.stdout if answer else "",
                stderr=answer.stderr if answer else "",
                trace_path=trace_path if trace_path.is_file() else None,
                trace=trace,
                trace_error=trace_error,
                failure=failure,
                run_dir=run_dir,
                isolation=self.isolation,
                warm=warm,
                server_pid=answer.server_pid if answer else None,
            )

        extra = dict(extra_env or {})
        user_pythonpath = [p for p in extra.pop("PYTHONPATH", "").split(os.pathsep) if p]
        assert self._python_path is not None or self._interpreter_problem is not None
        request: dict[str, Any] = {
            "op": "run",
            "id": run_id,
            "argv": argv,
            "config": {
                **trace_config,
                "argv": argv,
                "out": str(trace_path),
                "progress_out": str(progress_path(trace_path)),
            },
            "run_dir": str(run_dir),
            "net_log": str(net_log),
            "pythonpath": user_pythonpath,
            "limits": limits.model_dump(),
        }
        server = self._warm_server()
        if self._interpreter_problem is not None:
            return result(None, self._interpreter_failure(), False)
        assert self._python_path is not None
        env = sandbox_env(
            home=home,
            tmpdir=tmp,
            python=self._python_path,
            single_thread=self.parallel > 1,
            extra=extra,
        )
        env["PYTHONPATH"] = os.pathsep.join([*user_pythonpath, str(self._runtime / SITE_DIR)])
        env["TORCH_INVESTIGATE_RUN"] = run_id  # the server kills escaped processes by it
        env["TORCH_INVESTIGATE_RUN_DIR"] = str(run_dir)
        env["TORCH_INVESTIGATE_NET_LOG"] = str(net_log)
        request["env"] = env

        timeout = limits.wall_s + _ANSWER_MARGIN_S
        try:
            if server is not None:
                answer = server.result(run_id, server.submit(request), timeout)
            else:
                answer = self._run_cold(request, timeout)
        except ServerError as e:
            if e.fatal:
                self._interpreter_problem = f"interpreter {self.python}: {e}"
                return result(None, self._interpreter_failure(), False)
            if server is not None:
                server.close()  # the next run starts a new one
            message = f"the sandbox process failed during the run: {e}"
            return result(None, Failure(kind="killed", message=message), server is not None)

        loaded = _load_trace(trace_path)
        evidence = RunEvidence(
            exit_code=answer.exit_code,
            signal=answer.signal,
            timed_out=answer.timed_out,
            output_limited=answer.output_limited,
            wall_s=answer.wall_s,
            stderr=answer.stderr,
            run_dir=run_dir,
            limits=limits,
            python=self.python,
            error=loaded[0].error if loaded[0] is not None else None,
            network=read_json_lines(net_log),
        )
        return result(answer, classify(evidence), server is not None, loaded)

    def prepare(self, commands: list[list[str]], env: Mapping[str, str] | None = None) -> list[str]:
        """Run each command once, untraced, in a copy of the workspace (the data a Makefile
        prerequisite builds), then bring the files it made or changed back into the
        workspace so every later run starts from them. Returns notes for the report."""
        notes = []
        for argv in commands:
            config = Config(trace=False, probes=False, fast_forward=False,
                            max_steps=10**9, max_total_steps=10**9, max_forwards=10**9,
                            max_wall_s=max(10.0, self.limits.wall_s - 5.0))  # fmt: skip
            res = self.run(argv, trace_config=config, label="setup", env=env)
            shown = " ".join(["python", *argv])
            if res.failure is not None:
                notes.append(f"set-up `{shown}` failed: {res.failure.message}")
                break
            n = sync_back(res.run_dir, self.workspace_root)
            notes.append(f"set-up `{shown}` ran first ({n} files made or changed)")
        return notes

    def _run_cold(self, request: dict[str, Any], timeout: float) -> Answer:
        process = self._spawn(once=True)
        try:
            process.wait_ready(_START_TIMEOUT_S)
            return process.result(request["id"], process.submit(request), timeout)
        finally:
            process.close()
            with self._lock:
                self._processes.remove(process)

    def _interpreter_failure(self) -> Failure:
        return Failure(
            kind="interpreter",
            message=f"{self._interpreter_problem}; pass --python with an interpreter that has torch",
        )

    # -- life cycle ----------------------------------------------------------------

    def stop(self, grace_s: float = 5.0) -> None:
        """Stop every process (each gets `grace_s` to end its runs before its group is
        killed); the runs in flight lose their process and return at once, and a run that
        starts after raises SandboxError. Safe from any thread and from a signal handler."""
        with self._life:
            if self._closed:
                return
            self._closed = True
        _LIVE.discard(self)
        _close_all(self._processes, grace_s)
        self._finalizer.detach()
        self._poller.close()

    def close(self, drain_s: float = 10.0) -> None:
        """stop(), wait (up to `drain_s`) for the runs in flight, then remove the folder.
        Safe from any thread, also while runs are in flight, and more than once."""
        self.stop()
        with self._life:
            if self._removed:
                return
            self._removed = True
            self._life.wait_for(lambda: self._active == 0, timeout=drain_s)
        if self._owns_root:
            remove_tree(self.root)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _as_dict(config: Config | Mapping[str, Any]) -> dict[str, Any]:
    """The tracer's configuration as it crosses into the run (JSON)."""
    return asdict(config) if isinstance(config, Config) else dict(config)


def _load_trace(path: Path) -> tuple[Trace | None, str]:
    """The run's trace, validated (read once: the failure's classification and the checks
    both use it), or why there is none."""
    if not path.is_file():
        return None, "no trace was written"
    try:
        return load_trace(path), ""
    except (OSError, ValueError) as e:  # a ValidationError and a JSONDecodeError are ValueErrors
        return None, f"trace could not be read: {str(e)[:200]}"
