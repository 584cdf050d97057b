"""The workspace: a private copy of the target repo, made before anything runs.

Nothing ever runs in, or writes to, the original: every later step (index, sandbox
runs) works on `Workspace.root`. A git repo contributes its tracked files plus the
untracked ones not ignored; any other folder everything except virtualenvs, VCS and
cache folders. Files over the size limit are skipped and listed with the reason.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel

DEFAULT_MAX_FILE_MB = 50
_SKIPPED_DIRS = frozenset(
    {
        ".git",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "node_modules",
        ".tox",
        ".nox",
        ".ipynb_checkpoints",
    }
)


class WorkspaceError(RuntimeError):
    """The repo cannot be copied; the message is one line for the user."""


class Skipped(BaseModel):
    path: str  # relative to the repo, forward slashes
    reason: str


def _git_files(repo: Path) -> list[str] | None:
    """Tracked plus untracked-not-ignored files (relative to `repo`, which may be a folder
    inside a work tree), or None when `repo` is not in a git work tree."""
    import git

    try:
        listing = git.Git(str(repo)).ls_files("--cached", "--others", "--exclude-standard", "-z")
    except (git.GitCommandError, OSError):  # not a repo, or no git: walk the folder instead
        return None
    return [p for p in listing.split("\0") if p]


def _walk_files(repo: Path) -> Iterator[str]:
    for folder, dirs, files in os.walk(repo, followlinks=False):
        here = Path(folder)
        keep = []
        for d in dirs:
            path = here / d
            if d in _SKIPPED_DIRS or (path / "pyvenv.cfg").exists():
                continue
            if path.is_symlink():
                files.append(d)  # copied as a link, never followed
                continue
            keep.append(d)
        dirs[:] = sorted(keep)
        for name in sorted(files):
            yield (here / name).relative_to(repo).as_posix()


def _inside(target: Path, root: Path) -> bool:
    return target == root or root in target.parents


class Workspace:
    def __init__(self, source: Path, root: Path, skipped: list[Skipped]) -> None:
        self.source = source  # the original repo: never written
        self.root = root  # the copy everything works on
        self.skipped = skipped
        self._holder = root.parent

    @classmethod
    def create(cls, repo: Path, *, max_file_mb: float = DEFAULT_MAX_FILE_MB) -> Workspace:
        source = Path(repo).expanduser()
        if not source.exists():
            raise WorkspaceError(f"repo {source} does not exist")
        if not source.is_dir():
            raise WorkspaceError(f"repo {source} is a file, not a folder")
        source = source.resolve()
        if not os.access(source, os.R_OK | os.X_OK):
            raise WorkspaceError(f"repo {source} cannot be read")
        try:
            next(source.iterdir(), None)
        except OSError as e:
            raise WorkspaceError(f"repo {source} cannot be read ({e.strerror})") from e

        holder = Path(tempfile.mkdtemp(prefix="ti-workspace-"))
        root = holder / (source.name or "repo")  # keeps the repo's folder name for scripts
        root.mkdir()
        try:
            skipped = _copy(source, root, int(max_file_mb * 1024 * 1024))
        except BaseException:
            shutil.rmtree(holder, ignore_errors=True)
            raise
        return cls(source, root, skipped)

    def cleanup(self) -> None:
        shutil.rmtree(self._holder, ignore_errors=True)

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


def _copy(source: Path, root: Path, max_bytes: int) -> list[Skipped]:
    listed = _git_files(source)
    names = listed if listed is not None else list(_walk_files(source))
    skipped: list[Skipped] = []
    for name in names:
        src = source / name
        dst = root / name
        try:
            info = src.lstat()
        except OSError:
            continue  # listed by git but deleted in the work tree
        if stat.S_ISLNK(info.st_mode):
            target = Path(os.path.normpath(src.parent / os.readlink(src)))
            if not _inside(target, source):
                skipped.append(Skipped(path=name, reason="symlink pointing outside the repo"))
                continue
            dst.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.readlink(src), dst)
            continue
        if stat.S_ISDIR(info.st_mode):
            continue  # a git submodule: its files are not listed
        if not stat.S_ISREG(info.st_mode):
            skipped.append(Skipped(path=name, reason="not a regular file"))
            continue
        if info.st_size > max_bytes:
            size_mb = info.st_size / (1024 * 1024)
            reason = f"{size_mb:.0f} MB, over the {max_bytes // (1024 * 1024)} MB limit"
            skipped.append(Skipped(path=name, reason=reason))
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copy2(src, dst)
        except OSError as e:
            skipped.append(Skipped(path=name, reason=f"unreadable ({e.strerror})"))
    return skipped
