"""The warm fork server. Runs inside the sandbox's isolation, in the user's interpreter.

It imports torch (and the tracer) once, runs NO torch op (so no thread pool exists when
it forks), then serves run requests by forking one child per run.

Protocol, JSON lines. The host writes requests on our stdin; we answer on the original
stdout, which we keep as a private fd and replace fd 1 by stderr, so nothing printed
during imports can corrupt the answers.
    <- {"event": "ready", "pid", "python", "torch", "vm_kb"}     once, after the imports
    <- {"event": "fatal", "message"}                              instead, then exit 3
    -> {"op": "run", "id", "argv", "config", "run_dir", "env", "pythonpath", "net_log",
        "limits": {"wall_s", "cpu_s", "memory_mb", "file_size_mb", "open_files",
                   "output_bytes", "output_kill_bytes"}}
    <- {"event": "done", "id", "pid", "server_pid", "exit_code", "signal", "timed_out",
        "output_limited", "wall_s", "stdout", "stderr", "stdout_bytes", "stderr_bytes"}
EOF on stdin: every running child's process group is killed and the server exits.
With --once the server exits after its first run (the cold mode).

Wall clock: at the limit the child's whole process group gets SIGTERM (the child turns
it into an exception so the tracer can still write its trace), SIGKILL after a grace.
When a child exits, whatever is left of its group is killed, and so is any process
that escaped the group but still carries the run's marker in its environment.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import sys
import time

from .capture import HeadTail

KILL_GRACE_S = 2.0
# After the child exits, wait this long for its output pipes to close (a process that
# escaped the group may hold them) before answering anyway.
PIPE_DRAIN_S = 2.0
POLL_S = 0.02
RUN_MARKER = "TORCH_INVESTIGATE_RUN"


def _prctl(option: int, value: int) -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except Exception:  # noqa: BLE001 - best effort on non-Linux libc
        pass


def _kill_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _sweep_marked(run_id: str) -> None:
    """Kill processes that left the run's process group but carry its marker."""
    marker = f"\0{RUN_MARKER}={run_id}\0".encode()
    me = os.getpid()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as fh:
                environ = b"\0" + fh.read()
        except OSError:
            continue
        if marker in environ:
            try:
                os.kill(int(name), signal.SIGKILL)
            except OSError:
                pass


class Job:
    def __init__(self, request: dict, pid: int, out_fd: int, err_fd: int) -> None:
        limits = request["limits"]
        self.id = request["id"]
        self.pid = pid
        self.started = time.monotonic()
        self.deadline = self.started + float(limits["wall_s"])
        self.kill_bytes = int(limits["output_kill_bytes"])
        keep = int(limits["output_bytes"])
        self.streams = {out_fd: HeadTail(keep), err_fd: HeadTail(keep)}
        self.out_fd, self.err_fd = out_fd, err_fd
        self.open_fds = {out_fd, err_fd}
        self.timed_out = False
        self.output_limited = False
        self.term_sent_at: float | None = None
        self.status: int | None = None
        self.ended: float | None = None

    def stop(self, now: float) -> None:
        if self.term_sent_at is None and self.status is None:
            self.term_sent_at = now
            _kill_group(self.pid, signal.SIGTERM)

    def answer(self) -> dict:
        status = self.status or 0
        signaled = os.WIFSIGNALED(status)
        out, err = self.streams[self.out_fd], self.streams[self.err_fd]
        return {
            "event": "done",
            "id": self.id,
            "pid": self.pid,
            "server_pid": os.getpid(),
            "exit_code": None if signaled else os.WEXITSTATUS(status),
            "signal": os.WTERMSIG(status) if signaled else None,
            "timed_out": self.timed_out,
            "output_limited": self.output_limited,
            "wall_s": round((self.ended or time.monotonic()) - self.started, 4),
            "stdout": out.text(),
            "stderr": err.text(),
            "stdout_bytes": out.total,
            "stderr_bytes": err.total,
        }


class Server:
    def __init__(self, answers, once: bool) -> None:
        self.answers = answers
        self.once = once
        self.jobs: dict[int, Job] = {}
        self.selector = selectors.DefaultSelector()
        self.selector.register(0, selectors.EVENT_READ, None)
        self.stdin_open = True
        self.inbox = b""
        self.started_runs = 0

    def send(self, message: dict) -> None:
        try:
            self.answers.write(json.dumps(message) + "\n")
            self.answers.flush()
        except (BrokenPipeError, OSError):
            pass  # the host is gone; EOF on stdin ends us

    def serve(self) -> int:
        while self.stdin_open or self.jobs:
            if self.once and self.started_runs and not self.jobs:
                break
            timeout = POLL_S if self.jobs else None
            for key, _ in self.selector.select(timeout):
                if key.data is None:
                    self._read_requests()
                else:
                    self._read_output(key.data, key.fd)
            now = time.monotonic()
            self._reap(now)
            for job in list(self.jobs.values()):
                self._enforce(job, now)
        return 0

    def _read_requests(self) -> None:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            self.stdin_open = False
            self.selector.unregister(0)
            for job in self.jobs.values():
                _kill_group(job.pid, signal.SIGKILL)
            return
        self.inbox += chunk
        while b"\n" in self.inbox:
            line, self.inbox = self.inbox.split(b"\n", 1)
            if line.strip():
                request = json.loads(line)
                if request.get("op") == "run" and not (self.once and self.started_runs):
                    self._start(request)

    def _start(self, request: dict) -> None:
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        for stream in (sys.stdout, sys.stderr, self.answers):
            stream.flush()  # nothing buffered may be written twice after the fork
        pid = os.fork()
        if pid == 0:
            from . import child

            inherited = [self.answers.fileno(), out_r, err_r, self.selector_fd()]
            for job in self.jobs.values():
                inherited.extend(job.open_fds)
            child.run(request, out_w, err_w, inherited)
            os._exit(child.SETUP_FAILED)  # child.run never returns; belt and braces
        os.close(out_w)
        os.close(err_w)
        job = Job(request, pid, out_r, err_r)
        self.jobs[pid] = job
        self.started_runs += 1
        for fd in (out_r, err_r):
            os.set_blocking(fd, False)
            self.selector.register(fd, selectors.EVENT_READ, job)

    def selector_fd(self) -> int:
        fileno = getattr(self.selector, "fileno", None)
        return fileno() if fileno else -1

    def _read_output(self, job: Job, fd: int) -> None:
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        if not data:
            self._close_fd(job, fd)
            return
        job.streams[fd].add(data)
        total = job.streams[job.out_fd].total + job.streams[job.err_fd].total
        if total > job.kill_bytes and not job.output_limited:
            job.output_limited = True
            job.stop(time.monotonic())

    def _close_fd(self, job: Job, fd: int) -> None:
        if fd in job.open_fds:
            job.open_fds.discard(fd)
            self.selector.unregister(fd)
            os.close(fd)

    def _reap(self, now: float) -> None:
        while True:
            try:
                info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return
            if info is None or not info.si_pid:
                return
            pid = info.si_pid
            job = self.jobs.get(pid)
            if job is not None:
                # The group id stays reserved until the leader is reaped: kill the rest now.
                _kill_group(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            if job is not None:
                job.status = status
                job.ended = now
                _sweep_marked(job.id)

    def _enforce(self, job: Job, now: float) -> None:
        if job.status is None:
            if now >= job.deadline and not job.timed_out:
                job.timed_out = True
                job.stop(now)
            if job.term_sent_at is not None and now - job.term_sent_at >= KILL_GRACE_S:
                _kill_group(job.pid, signal.SIGKILL)
            return
        if job.open_fds and now - (job.ended or now) < PIPE_DRAIN_S:
            return
        for fd in list(job.open_fds):
            self._drain(job, fd)
            self._close_fd(job, fd)
        del self.jobs[job.pid]
        if self.stdin_open:
            self.send(job.answer())

    def _drain(self, job: Job, fd: int) -> None:
        try:
            while data := os.read(fd, 1 << 16):
                job.streams[fd].add(data)
        except OSError:
            pass


def _preload() -> str | None:
    """Import what every run needs; return a one-line reason when it cannot."""
    try:
        import torch
        import torch.nn
        import torch.optim  # noqa: F401
    except BaseException as e:  # noqa: BLE001 - any failure is the interpreter's
        return f"cannot import torch ({type(e).__name__}: {e})"
    try:
        import torch._dynamo  # noqa: F401 - the first optimizer step imports it anyway
    except BaseException:  # noqa: BLE001, S110 - older torch: the run pays the import
        pass
    try:
        import _torch_investigate_trace.runner  # noqa: F401  # pyright: ignore[reportMissingImports]
    except BaseException as e:  # noqa: BLE001
        return f"cannot import the tracer ({type(e).__name__}: {e})"
    return None


def _vm_kb() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1])
    return 0


def main(args: list[str]) -> int:
    once = "--once" in args
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the host (no pid namespace)
    _prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: orphans of a run come back to us to reap
    problem = _preload()
    if problem is not None:
        answers.write(json.dumps({"event": "fatal", "message": problem}) + "\n")
        answers.flush()
        return 3
    import torch

    ready = {
        "event": "ready",
        "pid": os.getpid(),
        "python": sys.executable,
        "torch": torch.__version__,
        "vm_kb": _vm_kb(),
    }
    answers.write(json.dumps(ready) + "\n")
    answers.flush()
    code = Server(answers, once).serve()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # skip the interpreter's teardown of torch: nothing of ours needs it
