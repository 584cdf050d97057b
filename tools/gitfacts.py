"""Git facts about the target repo: HEAD, branch, dirty files, recent commits that
touched the training code. Read-only: nothing here changes the repo or its index."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import git

from torch_investigate.tools.records import Commit, GitFacts

MAX_COMMITS = 10


def _open(repo: Path) -> git.Repo | None:
    try:
        return git.Repo(repo, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, git.GitCommandError):
        return None


def _dirty(r: git.Repo, prefix: str) -> list[str]:
    # porcelain covers modified, staged, deleted, renamed and untracked-not-ignored.
    status = r.git.status("--porcelain", "-z", "--untracked-files=all", "--", prefix or ".")
    files: list[str] = []
    entries = status.split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        code, path = entry[:2], entry[3:]
        if "R" in code or "C" in code:
            i += 1  # the rename's source path follows as its own entry
        files.append(_strip(path, prefix))
    return sorted(set(files))


def _strip(path: str, prefix: str) -> str:
    """`path` relative to the top of the work tree -> relative to the repo folder given."""
    return path[len(prefix) + 1 :] if prefix and path.startswith(prefix + "/") else path


def _files(r: git.Repo, c: git.Commit, prefix: str) -> list[str]:
    """The files `c` changed (against its first parent) inside the investigated folder,
    relative to it: a commit that also changed files elsewhere in a larger repo lists
    only the folder's."""
    trees = [c.parents[0].hexsha, c.hexsha] if c.parents else ["--root", c.hexsha]
    where = ["--", prefix] if prefix else []
    try:
        out = r.git.diff_tree("-r", "--name-only", "-z", "--no-commit-id", "--no-renames",
                              *trees, *where)  # fmt: skip
    except git.GitCommandError:
        return []
    return sorted({_strip(path, prefix) for path in out.split("\0") if path})


def _commits(r: git.Repo, paths: Sequence[str], prefix: str) -> list[Commit]:
    try:
        found = list(r.iter_commits("HEAD", max_count=MAX_COMMITS, paths=list(paths) or None))
    except (git.GitCommandError, ValueError):
        return []
    commits = []
    for c in found:
        summary = c.summary if isinstance(c.summary, str) else c.summary.decode(errors="replace")
        commits.append(
            Commit(
                sha=c.hexsha,
                date=c.committed_datetime.isoformat(),
                author=str(c.author.name or c.author.email or ""),
                summary=summary,
                files=_files(r, c, prefix),
            )
        )
    return commits


def git_facts(repo: Path, training_files: Sequence[str] = ()) -> GitFacts:
    """Facts about `repo`, which may be a folder inside a larger work tree: every path is
    relative to `repo`, and only what happened inside it is listed. `training_files`
    (relative to `repo`) restrict the commits to those that touched them, else the most
    recent commits that touched the folder are listed."""
    r = _open(Path(repo))
    if r is None or r.working_tree_dir is None:
        return GitFacts(is_repo=False)
    top = Path(r.working_tree_dir).resolve()
    here = Path(repo).resolve()
    prefix = here.relative_to(top).as_posix() if here != top else ""
    try:
        head = r.head.commit.hexsha
    except ValueError:  # no commits yet: HEAD points at an unborn branch
        head = None
    branch = None if r.head.is_detached else r.active_branch.name
    dirty = _dirty(r, prefix)
    paths = [f"{prefix}/{p}" if prefix else p for p in training_files]
    commits = _commits(r, paths or ([prefix] if prefix else []), prefix) if head else []
    return GitFacts(is_repo=True, head=head, branch=branch, dirty=dirty, recent_commits=commits)
