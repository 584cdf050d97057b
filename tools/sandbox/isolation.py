"""Which isolation this machine offers, and the command prefix that applies it.

Strongest first: bubblewrap (read-only `/`, writable sandbox root, private /tmp, new
network and pid namespaces), then `unshare -r -n` (network namespace only), then the
in-process socket guard alone. The socket guard is installed in every child anyway, so
a network attempt is reported the same way whatever is chosen here.
"""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path

ISOLATIONS = ("bwrap", "unshare", "socket-guard")
_PROBE_TIMEOUT_S = 10


class IsolationError(ValueError):
    """An isolation was asked for that does not exist or does not work here."""


def _works(argv: list[str]) -> bool:
    try:
        done = subprocess.run(argv, capture_output=True, timeout=_PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _bwrap_base(pid_namespace: bool) -> list[str]:
    base = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    base += ["--tmpfs", "/tmp", "--unshare-net", "--unshare-ipc", "--die-with-parent"]
    return base + (["--unshare-pid"] if pid_namespace else [])


@cache
def _probe(name: str) -> tuple[bool, bool]:
    """(available, with a pid namespace). Probed once per process."""
    if name == "bwrap":
        if shutil.which("bwrap") is None:
            return False, False
        if _works([*_bwrap_base(True), "true"]):
            return True, True
        return _works([*_bwrap_base(False), "true"]), False
    if name == "unshare":
        return shutil.which("unshare") is not None and _works(
            ["unshare", "-r", "-n", "true"]
        ), False
    return True, False


def available() -> dict[str, bool]:
    """Every isolation and whether it works on this machine."""
    return {name: _probe(name)[0] for name in ISOLATIONS}


def choose(requested: str = "auto") -> str:
    """The isolation to use: the strongest that works for "auto", else the one asked
    for, which must work."""
    if requested == "auto":
        return next(name for name in ISOLATIONS if _probe(name)[0])
    if requested not in ISOLATIONS:
        raise IsolationError(f"unknown isolation {requested!r}: use auto, {', '.join(ISOLATIONS)}")
    if not _probe(requested)[0]:
        raise IsolationError(f"isolation {requested!r} does not work on this machine")
    return requested


def _under(path: Path, folder: str) -> bool:
    return path == Path(folder) or Path(folder) in path.parents


def wrap(
    isolation: str, root: Path, runtime: Path, python: Path, surroundings: Path | None = None
) -> list[str]:
    """The command prefix that runs a process under `isolation`.

    Under bwrap the whole filesystem is read-only except `root` (run copies, outputs);
    the staged runtime inside it is read-only again so no run can change the code of
    a later one; /tmp is private, so an interpreter (or the folder around the user's
    repo, `surroundings`) living under /tmp is bound back, read-only.
    """
    if isolation == "bwrap":
        argv = _bwrap_base(_probe("bwrap")[1])
        argv += ["--bind", str(root), str(root), "--ro-bind", str(runtime), str(runtime)]
        prefix = python.parent.parent  # the venv (or installation) around bin/python
        for folder in (prefix, surroundings):
            if folder is not None and _under(folder, "/tmp") and not _under(root, str(folder)):
                if folder != Path("/tmp") and not _under(folder, str(root)):
                    argv += ["--ro-bind", str(folder), str(folder)]
        return [*argv, "--chdir", str(root), "--"]
    if isolation == "unshare":
        return ["unshare", "-r", "-n", "--"]
    return []
