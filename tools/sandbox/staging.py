"""Stage the code that runs inside the sandbox into a private runtime dir.

Layout (the runtime dir goes on the child's `sys.path`; every top-level name is ours
and unique, so it cannot collide with a `tools` package of the user's repo):

    runtime/_torch_investigate_boot.py      the process entry point
    runtime/_torch_investigate_sandbox/     server, child set-up, socket guard
    runtime/_torch_investigate_trace/       a copy of tools/trace, with its subpackages
                                            (hooks/, interventions/)
    runtime/site/sitecustomize.py           the guard for Python subprocesses of a run
"""

from __future__ import annotations

import shutil
from pathlib import Path

TRACE_PACKAGE = "_torch_investigate_trace"
SANDBOX_PACKAGE = "_torch_investigate_sandbox"
BOOT_SCRIPT = "_torch_investigate_boot.py"
SITE_DIR = "site"

_HERE = Path(__file__).resolve().parent
_RUNTIME_SOURCE = _HERE / "runtime"
_TRACE_SOURCE = _HERE.parent / "trace"
_NO_CACHE = shutil.ignore_patterns("__pycache__", "*.pyc")
_NOT_IN_PACKAGE = shutil.ignore_patterns("__pycache__", "*.pyc", "boot.py", "sitecustomize.py")


def stage_runtime(runtime: Path, tracer: Path | None = None) -> Path:
    """Copy the in-sandbox code into `runtime` (created); return the boot script.
    `tracer` is the tracer package's folder (tools/trace unless given)."""
    runtime.mkdir(parents=True, exist_ok=True)
    shutil.copytree(tracer or _TRACE_SOURCE, runtime / TRACE_PACKAGE, ignore=_NO_CACHE)
    shutil.copytree(_RUNTIME_SOURCE, runtime / SANDBOX_PACKAGE, ignore=_NOT_IN_PACKAGE)
    (runtime / SITE_DIR).mkdir()
    shutil.copy2(_RUNTIME_SOURCE / "sitecustomize.py", runtime / SITE_DIR / "sitecustomize.py")
    boot = runtime / BOOT_SCRIPT
    shutil.copy2(_RUNTIME_SOURCE / "boot.py", boot)
    return boot
