"""Which files of a repo get indexed, and reading them safely.

A bad file is never fatal: it comes back as a `SkippedFile` with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from torch_investigate.tools.code.records import SkippedFile

MAX_FILE_BYTES = 2 * 1024 * 1024

# Folders that hold someone else's code or tool state, never the repo's training path.
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        "site-packages",
        "dist-packages",
        "node_modules",
        "venv",
        ".venv",
        ".tox",
        ".nox",
        ".eggs",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".ipynb_checkpoints",
    }
)


def iter_python_files(root: Path) -> Iterator[Path]:
    """Every `.py` file under root, sorted, without following symlinked folders."""
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        # A folder with pyvenv.cfg is a virtualenv whatever its name.
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in SKIP_DIRS
            and not (d.startswith(".") and d != ".")
            and not (here / d / "pyvenv.cfg").exists()
        )
        for name in sorted(filenames):
            if name.endswith(".py"):
                yield here / name


def relative_name(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def read_source(rel: str, path: Path) -> bytes | SkippedFile:
    """The file's bytes when it is indexable text, else the reason it is not."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return SkippedFile(file=rel, reason=f"larger than 2 MB ({size} bytes)")
        data = path.read_bytes()
    except OSError as e:
        return SkippedFile(file=rel, reason=f"unreadable: {e.strerror or e}")
    return check_source(rel, data)


def check_source(rel: str, data: bytes) -> bytes | SkippedFile:
    if len(data) > MAX_FILE_BYTES:
        return SkippedFile(file=rel, reason=f"larger than 2 MB ({len(data)} bytes)")
    if b"\x00" in data[:8192]:
        return SkippedFile(file=rel, reason="binary (contains NUL bytes)")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return SkippedFile(file=rel, reason=f"not UTF-8 (byte {e.start})")
    return data
