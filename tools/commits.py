"""The commits a bisect walks, and checkouts of single commits (gitpython).

A checkout is a detached `git worktree` in a temporary folder outside the user's
repo. The user's work tree, index, HEAD, refs and stash are never touched; the only
trace in `.git` is the worktree's own admin folder (`.git/worktrees/<name>`), which
`checkout()` removes again on the way out, however the block ends.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import git

from torch_investigate.tools.records import CommitDetail, FileChange

# Hooks are the user's code: a checkout for a measurement must not run post-checkout.
_NO_HOOKS = "core.hooksPath=/dev/null"


class HistoryError(ValueError):
    """The repo or a revision cannot be bisected; the message is one line for the user."""


@dataclass(frozen=True)
class History:
    """The first-parent commits after `good` up to and including `bad`, oldest first."""

    repo: git.Repo
    prefix: str  # the user's folder relative to the top of the work tree ("" at the top)
    good: str
    bad: str
    commits: list[str]


def open_repo(path: Path) -> tuple[git.Repo, str]:
    """The repo that holds `path`, and `path` relative to the top of its work tree."""
    path = Path(path).expanduser()
    if not path.is_dir():
        raise HistoryError(f"{path} is not a folder")
    try:
        repo = git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise HistoryError(f"{path} is not in a git repository") from None
    if repo.working_tree_dir is None:
        raise HistoryError(f"{path} is a bare repository; bisect needs a work tree")
    top = Path(repo.working_tree_dir).resolve()
    here = path.resolve()
    return repo, ("" if here == top else here.relative_to(top).as_posix())


def resolve(repo: git.Repo, rev: str, role: str) -> str:
    """The full sha of the commit `rev` names."""
    try:
        return repo.commit(rev).hexsha
    except (git.BadName, git.BadObject, ValueError, git.GitCommandError):
        raise HistoryError(f"unknown revision for --{role}: {rev!r}") from None


def history(path: Path, good_rev: str, bad_rev: str) -> History:
    repo, prefix = open_repo(path)
    good, bad = resolve(repo, good_rev, "good"), resolve(repo, bad_rev, "bad")
    if good == bad:
        raise HistoryError(f"--good and --bad name the same commit ({good[:10]})")
    if not repo.is_ancestor(good, bad):
        raise HistoryError(f"--good {good_rev} ({good[:10]}) is not an ancestor of --bad {bad_rev}")
    listing = repo.git.rev_list("--first-parent", "--reverse", f"{good}..{bad}")
    return History(repo, prefix, good, bad, listing.split())


def subject(repo: git.Repo, sha: str) -> str:
    summary = repo.commit(sha).summary
    return summary if isinstance(summary, str) else summary.decode(errors="replace")


def detail(repo: git.Repo, sha: str) -> CommitDetail:
    """Message, author and the diff stat against the first parent."""
    commit = repo.commit(sha)
    message = commit.message
    files = [
        FileChange(path=str(name), insertions=s["insertions"], deletions=s["deletions"])
        for name, s in sorted(commit.stats.files.items())
    ]
    return CommitDetail(
        sha=sha,
        subject=subject(repo, sha),
        message=message if isinstance(message, str) else message.decode(errors="replace"),
        author=str(commit.author.name or commit.author.email or ""),
        date=commit.committed_datetime.isoformat(),
        files=files,
        insertions=sum(f.insertions for f in files),
        deletions=sum(f.deletions for f in files),
    )


@contextmanager
def checkout(repo: git.Repo, sha: str, name: str) -> Iterator[Path]:
    """The commit `sha` checked out (detached) into a temporary worktree folder `name`."""
    holder = Path(tempfile.mkdtemp(prefix="ti-bisect-"))
    path = holder / name
    try:
        repo.git(c=_NO_HOOKS).worktree("add", "--detach", "--quiet", str(path), sha)
        yield path
    finally:
        _remove(repo, path)
        shutil.rmtree(holder, ignore_errors=True)


def _remove(repo: git.Repo, path: Path) -> None:
    """Remove the worktree and its admin folder. `git worktree prune` runs only when the
    removal left our entry behind: run unconditionally it would also drop the user's own
    stale entries (a worktree on an unmounted disk), which is theirs to decide."""
    try:
        repo.git.worktree("remove", "--force", str(path))
    except git.GitCommandError:
        pass
    if _registered(repo, path):
        shutil.rmtree(path, ignore_errors=True)
        repo.git.worktree("prune")


def _registered(repo: git.Repo, path: Path) -> bool:
    listing = repo.git.worktree("list", "--porcelain")
    return any(
        line == f"worktree {path}" or line == f"worktree {path.resolve()}"
        for line in listing.splitlines()
    )
