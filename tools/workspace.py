"""The workspace: a private copy of the target repo, made before anything runs.

Nothing ever runs in, or writes to, the original: every later step (index, sandbox
runs) works on `Workspace.root`. The copy holds what is on disk, files .gitignore hides
included (prepared data often lives there: `data/*.bin`), except virtualenvs, VCS and
cache folders. A file over the size limit, or any file once the copy has reached its
total budget, is not copied but linked to the original when the caller says links are
read-only to the runs (bwrap makes the whole filesystem read-only outside the run's
copy), else left out; either way it is listed with the reason.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel

DEFAULT_MAX_FILE_MB = 50  # a larger file is linked, not copied
DEFAULT_MAX_TOTAL_MB = 2048  # past this many copied bytes every further file is linked
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
    linked: bool = False  # linked to the original (read-only) instead of copied


def _git_files(repo: Path) -> tuple[list[str], set[str]] | None:
    """Tracked files first, then every untracked one, ignored or not (relative to `repo`,
    which may be a folder inside a work tree), and which of them git ignores; None when
    `repo` is not in a git work tree. What the walk would leave out (virtualenvs, caches)
    is left out here too."""
    import git

    try:
        g = git.Git(str(repo))
        tracked = g.ls_files("--cached", "-z").split("\0")
        visible = set(g.ls_files("--others", "--exclude-standard", "-z").split("\0"))
        untracked = g.ls_files("--others", "--directory", "--no-empty-directory", "-z").split("\0")
    except (git.GitCommandError, OSError):  # not a repo, or no git: walk the folder instead
        return None
    names = [p for p in tracked if p]
    for name in (p for p in untracked if p):
        if name.endswith("/"):  # git lists an untracked folder once: walk it as a plain folder
            folder = repo / name.rstrip("/")
            if not _skipped_dir(folder):
                names += [f"{name}{sub}" for sub in _walk_files(folder)]
        elif not any(part in _SKIPPED_DIRS for part in Path(name).parts):
            names.append(name)
    names = list(dict.fromkeys(names))
    known = visible | set(tracked)
    return names, {n for n in names if n not in known}


def _skipped_dir(path: Path) -> bool:
    return path.name in _SKIPPED_DIRS or (path / "pyvenv.cfg").exists()


def _walk_files(repo: Path) -> Iterator[str]:
    for folder, dirs, files in os.walk(repo, followlinks=False):
        here = Path(folder)
        keep = []
        for d in dirs:
            path = here / d
            if _skipped_dir(path):
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
    def __init__(
        self, source: Path, root: Path, skipped: list[Skipped], ignored: set[str] | None = None
    ) -> None:
        self.source = source  # the original repo: never written
        self.root = root  # the copy everything works on
        self.skipped = skipped
        # files git ignores (copied for the runs: data, outputs; not read as the repo's code)
        self.ignored: set[str] = ignored or set()
        self._holder = root.parent

    @classmethod
    def create(
        cls,
        repo: Path,
        *,
        max_file_mb: float = DEFAULT_MAX_FILE_MB,
        max_total_mb: float = DEFAULT_MAX_TOTAL_MB,
        link_read_only: bool = False,
    ) -> Workspace:
        """`link_read_only`: the runs cannot write through a link to the original, so a
        file over the limits is linked rather than left out."""
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
        listed = _git_files(source)
        names, ignored = listed if listed is not None else (list(_walk_files(source)), set())
        try:
            skipped = _copy(
                source, root, names, int(max_file_mb * 2**20), int(max_total_mb * 2**20),
                link_read_only,
            )  # fmt: skip
        except BaseException:
            shutil.rmtree(holder, ignore_errors=True)
            raise
        return cls(source, root, skipped, ignored)

    def cleanup(self) -> None:
        shutil.rmtree(self._holder, ignore_errors=True)

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


def _copy(
    source: Path, root: Path, names: list[str], max_bytes: int, max_total: int, link: bool
) -> list[Skipped]:
    skipped: list[Skipped] = []
    copied = 0
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
        size_mb = info.st_size / 2**20
        over = (
            f"{size_mb:.0f} MB, over the {max_bytes / 2**20:g} MB limit for a copied file"
            if info.st_size > max_bytes
            else f"the copy reached its {max_total / 2**20:g} MB budget"
            if copied + info.st_size > max_total
            else ""
        )
        if over and not link:
            skipped.append(Skipped(path=name, reason=f"{over}: left out"))
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        if over:  # the run still sees the file, read-only, where the program looks for it
            os.symlink(src, dst)
            skipped.append(Skipped(path=name, reason=f"{over}: linked read-only", linked=True))
            continue
        try:
            shutil.copy2(src, dst)
            copied += info.st_size
        except OSError as e:
            skipped.append(Skipped(path=name, reason=f"unreadable ({e.strerror})"))
    return skipped
