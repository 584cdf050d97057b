"""A run's files as the host handles them: the JSON a run wrote (its trace, answer and
logs, read without trusting them), the files it made copied back into the workspace, and a
run folder removed even where the run made its files read-only."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path
from typing import Any


def remove_tree(path: Path) -> None:
    def make_writable(func, target, _exc_info):  # a run may have made its files read-only
        try:
            os.chmod(target, stat.S_IRWXU)
            func(target)
        except OSError:
            pass

    if path.exists():
        shutil.rmtree(path, onerror=make_writable)


def sync_back(run_dir: Path | None, workspace: Path) -> int:
    """Copy files a run made or changed into the workspace (not caches, not links)."""
    if run_dir is None or not run_dir.is_dir():
        return 0
    n = 0
    for src in run_dir.rglob("*"):
        rel = src.relative_to(run_dir)
        if src.is_symlink() or not src.is_file() or "__pycache__" in rel.parts:
            continue
        dst = workspace / rel
        if (
            dst.is_file()
            and dst.stat().st_size == src.stat().st_size
            and dst.read_bytes() == src.read_bytes()
        ):
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
        n += 1
    return n


def read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def read_json_lines(path: Path) -> list[dict[str, Any]]:
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return []
    records = []
    for line in lines[:100]:
        try:
            records.append(json.loads(line))
        except ValueError:
            continue
    return records
