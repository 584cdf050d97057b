"""Installs the socket guard in Python subprocesses that a training script starts.

Staged into its own folder that is put on the child's PYTHONPATH; the forked child
itself installs the guard directly and never imports this file.
"""

import os
import sys


def _install() -> None:
    run_dir = os.environ.get("TORCH_INVESTIGATE_RUN_DIR")
    if not run_dir:
        return
    runtime = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if runtime not in sys.path:
        sys.path.append(runtime)
    try:
        from _torch_investigate_sandbox import guard  # pyright: ignore[reportMissingImports]
    except ImportError:
        return
    guard.install(run_dir, os.environ.get("TORCH_INVESTIGATE_NET_LOG"))


_install()
