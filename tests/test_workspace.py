"""The workspace copy: what is copied, what is skipped, errors, and the original untouched."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import git
import pytest

from torch_investigate.tools.workspace import Workspace, WorkspaceError


def _plain_repo(root: Path) -> Path:
    repo = root / "proj"
    (repo / "pkg").mkdir(parents=True)
    (repo / "train.py").write_text("print('train')\n")
    (repo / "run.sh").write_text("#!/bin/sh\n")
    os.chmod(repo / "run.sh", 0o755)
    (repo / "pkg" / "model.py").write_text("x = 1\n")
    (repo / "link_in.py").symlink_to("pkg/model.py")
    (repo / "link_out").symlink_to("/etc/hostname")
    for skipped in (".venv", "__pycache__", ".mypy_cache", "node_modules", ".git"):
        (repo / skipped).mkdir()
        (repo / skipped / "f.txt").write_text("x")
    (repo / ".venv" / "pyvenv.cfg").write_text("home = /usr\n")
    (repo / "env2").mkdir()
    (repo / "env2" / "pyvenv.cfg").write_text("home = /usr\n")
    (repo / "big.bin").write_bytes(b"\0" * 2048)
    return repo


def test_plain_folder_copy_keeps_layout_modes_and_inner_links(tmp_path: Path) -> None:
    repo = _plain_repo(tmp_path)
    with Workspace.create(repo, max_file_mb=0.001) as ws:
        files = sorted(p.relative_to(ws.root).as_posix() for p in ws.root.rglob("*"))
        assert files == ["link_in.py", "pkg", "pkg/model.py", "run.sh", "train.py"]
        assert ws.root.name == "proj" and ws.source == repo.resolve()
        assert stat.S_IMODE((ws.root / "run.sh").stat().st_mode) == 0o755
        assert (ws.root / "link_in.py").is_symlink()
        assert os.readlink(ws.root / "link_in.py") == "pkg/model.py"
        reasons = {s.path: s.reason for s in ws.skipped}
        assert "over the" in reasons["big.bin"] and "left out" in reasons["big.bin"]
        assert "outside" in reasons["link_out"]
        root = ws.root
    assert not root.exists()


def test_large_files_are_linked_when_links_are_read_only(tmp_path: Path) -> None:
    repo = _plain_repo(tmp_path)
    with Workspace.create(repo, max_file_mb=0.001, link_read_only=True) as ws:
        link = ws.root / "big.bin"
        assert link.is_symlink() and link.resolve() == (repo / "big.bin").resolve()
        (entry,) = [s for s in ws.skipped if s.path == "big.bin"]
        assert entry.linked and "linked read-only" in entry.reason
    with Workspace.create(repo, max_total_mb=0.001, link_read_only=True) as ws:
        assert (ws.root / "big.bin").is_symlink()  # past the copy's total budget
        assert not (ws.root / "train.py").is_symlink()


def test_git_repo_copies_ignored_files_too(tmp_path: Path) -> None:
    """Prepared data often lives where .gitignore hides it; the run must see it. Caches
    and virtualenvs stay out whether ignored or not."""
    repo = tmp_path / "g"
    repo.mkdir()
    r = git.Repo.init(repo)
    (repo / ".gitignore").write_text("checkpoints/\n*.log\n")
    (repo / "train.py").write_text("a\n")
    (repo / "checkpoints").mkdir()
    (repo / "checkpoints" / "last.pt").write_text("w")
    (repo / "run.log").write_text("l")
    r.index.add([".gitignore", "train.py"])
    r.index.commit("init", author=git.Actor("a", "a@x"), committer=git.Actor("a", "a@x"))
    (repo / "new_module.py").write_text("b\n")
    (repo / "train.py").write_text("modified\n")
    (repo / "data").mkdir()
    (repo / "data" / "train.bin").write_bytes(b"\1\2")
    (repo / ".gitignore").write_text("checkpoints/\n*.log\ndata/\n.venv/\n")
    (repo / ".venv").mkdir()
    (repo / ".venv" / "pyvenv.cfg").write_text("home = /usr\n")
    (repo / "__pycache__").mkdir()
    (repo / "__pycache__" / "x.pyc").write_bytes(b"x")
    with Workspace.create(repo) as ws:
        files = sorted(p.relative_to(ws.root).as_posix() for p in ws.root.rglob("*") if p.is_file())
        assert files == [
            ".gitignore", "checkpoints/last.pt", "data/train.bin", "new_module.py", "run.log",
            "train.py",
        ]  # fmt: skip
        assert ws.ignored == {"checkpoints/last.pt", "data/train.bin", "run.log"}
        assert (ws.root / "train.py").read_text() == "modified\n"  # the work tree, not HEAD


def test_errors_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="does not exist"):
        Workspace.create(tmp_path / "nope")
    (tmp_path / "file.py").write_text("")
    with pytest.raises(WorkspaceError, match="is a file, not a folder"):
        Workspace.create(tmp_path / "file.py")


def test_unreadable_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    os.chmod(locked, 0)
    try:
        if os.access(locked, os.R_OK):  # root reads anything: simulate with a patched access
            monkeypatch.setattr(os, "access", lambda *a, **k: False)
        with pytest.raises(WorkspaceError, match="cannot be read"):
            Workspace.create(locked)
    finally:
        os.chmod(locked, 0o755)
