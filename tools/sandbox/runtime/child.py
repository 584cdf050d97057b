"""One run, in a freshly forked child of the server: set up, call `run_traced`, exit.

Order matters: the process group and stdio first (so everything after is captured and
killable as one group), then the environment and cwd, then the resource limits (after
the set-up's own allocations), then the socket guard, then the user's code.
"""

from __future__ import annotations

import atexit
import io
import os
import resource
import signal
import sys
import tempfile
import threading
import traceback

from . import guard

MB = 1024 * 1024
# Exit code when the sandbox's own set-up fails (BSD EX_SOFTWARE); never the program's.
SETUP_FAILED = 70


class WallClockLimit(BaseException):
    """Raised in the program when the server's wall-clock limit sends SIGTERM, so the
    tracer can still write its trace with the frame the program was stuck in."""


class CpuTimeLimit(BaseException):
    """Raised in the program at the soft RLIMIT_CPU (SIGXCPU)."""


def _raise_on(exc: type[BaseException], text: str):
    def handler(signum, frame):
        signal.signal(signum, signal.SIG_DFL)  # a second signal ends the process
        raise exc(text)

    return handler


def _vm_bytes() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _set_limit(which: int, soft: int, hard: int | None = None) -> None:
    _, cur_hard = resource.getrlimit(which)
    hard = soft if hard is None else hard
    if cur_hard != resource.RLIM_INFINITY:
        hard = min(hard, cur_hard)
        soft = min(soft, hard)
    resource.setrlimit(which, (soft, hard))


def _set_limits(limits: dict) -> None:
    # RLIMIT_AS is relative to the address space inherited from the warm server, so
    # memory_mb means "on top of an interpreter that has torch imported".
    _set_limit(resource.RLIMIT_AS, _vm_bytes() + int(limits["memory_mb"]) * MB)
    cpu = int(limits["cpu_s"])
    _set_limit(resource.RLIMIT_CPU, cpu, cpu + 5)
    _set_limit(resource.RLIMIT_FSIZE, int(limits["file_size_mb"]) * MB)
    _set_limit(resource.RLIMIT_NOFILE, int(limits["open_files"]))
    _set_limit(resource.RLIMIT_CORE, 0)


def _redirect_stdio(out_fd: int, err_fd: int) -> None:
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    for fd in {devnull, out_fd, err_fd} - {0, 1, 2}:
        os.close(fd)

    def text(fd: int, mode: str) -> io.TextIOWrapper:
        raw = io.FileIO(fd, mode, closefd=False)
        return io.TextIOWrapper(
            raw if mode == "r" else io.BufferedWriter(raw),
            encoding="utf-8",
            errors="backslashreplace",
            line_buffering=True,
            write_through=True,
        )

    sys.stdin, sys.stdout, sys.stderr = text(0, "r"), text(1, "w"), text(2, "w")
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr


def _apply_env(env: dict) -> None:
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in env.items()})
    tempfile.tempdir = None  # recomputed from the new TMPDIR


def _prepare_sys_path(argv: list, run_dir: str, pythonpath: list) -> None:
    # The runtime dir goes last so nothing of ours shadows a module of the repo; the
    # script's own dir is put first by runpy inside run_traced, as `python train.py` does.
    runtime = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:] = [p for p in sys.path if p not in ("", runtime)] + [runtime]
    for entry in reversed(pythonpath):
        sys.path.insert(0, os.path.abspath(entry))
    if argv and argv[0] == "-m":
        sys.path.insert(0, run_dir)  # `python -m` puts the cwd first


def _exit(code: int) -> None:
    # What interpreter shutdown would do, then leave without the server's own exit path.
    try:
        threading._shutdown()  # type: ignore[attr-defined]
    except BaseException:  # noqa: BLE001 - nothing may stop the exit
        pass
    try:
        atexit._run_exitfuncs()
    except BaseException:  # noqa: BLE001
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            pass
    os._exit(code)


def run(request: dict, out_fd: int, err_fd: int, close_fds: list) -> None:
    """Never returns: the child exits with the program's exit code."""
    code = SETUP_FAILED
    try:
        os.setsid()
        for fd in close_fds:
            try:
                os.close(fd)
            except OSError:
                pass
        _redirect_stdio(out_fd, err_fd)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, _raise_on(WallClockLimit, "stopped at the wall-clock limit"))
        signal.signal(signal.SIGXCPU, _raise_on(CpuTimeLimit, "stopped at the CPU-time limit"))
        run_dir = request["run_dir"]
        argv = list(request["argv"])
        _apply_env(request["env"])
        os.chdir(run_dir)
        _prepare_sys_path(argv, run_dir, list(request.get("pythonpath", [])))
        from _torch_investigate_trace import run_traced  # pyright: ignore[reportMissingImports]

        guard.install(run_dir, request.get("net_log"))
        _set_limits(request["limits"])
        config = dict(request["config"])
        result = run_traced(config)
        code = result if isinstance(result, int) and 0 <= result <= 255 else 1
    except BaseException:  # noqa: BLE001 - report any set-up or tracer failure
        try:
            sys.stderr.write("torch-investigate sandbox: the run could not start\n")
            traceback.print_exc()
        except BaseException:  # noqa: BLE001
            pass
    _exit(code)
