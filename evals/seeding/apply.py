"""Applying a mutation: copy the repo, write the edited files, name the ground truth.

The input repo is only read. The ground truth's symbol comes from indexing the seeded
copy, so it is exactly what `CodeIndex.enclosing_symbol` says about the anchor line.
"""

from __future__ import annotations

import ast
import os
import shutil
from pathlib import Path

from torch_investigate.evals.seeding.edits import apply_edits
from torch_investigate.evals.seeding.operators.base import Mutation
from torch_investigate.evals.seeding.records import GroundTruth
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.taxonomy import taxonomy

# Never copied: version control, caches and virtualenvs. Inside a git work tree, what
# git ignores is not copied either (a template's generated data, checkpoints).
SKIPPED = frozenset(
    {".git", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules"}
)


class SeedError(ValueError):
    """The seeding could not be made; the message is one line for the user."""


def repo_files(source: Path) -> list[str]:
    """Relative names of the files a seeded copy holds."""
    listed = _git_listing(source)
    # A folder git ignores as a whole (a suite written under bench-results/) is copied
    # whole: what it holds was put there to be the case.
    names = listed if listed else _walk(source)
    return sorted(
        n
        for n in names
        if not any(part in SKIPPED for part in n.split("/"))
        and not n.endswith(".pyc")
        and (source / n).is_file()
    )


def copy_repo(source: Path, out: Path) -> None:
    for name in repo_files(source):
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / name, target)


def _git_listing(source: Path) -> list[str] | None:
    import git

    try:
        listing = git.Git(str(source)).ls_files(
            "--cached", "--others", "--exclude-standard", "-z", "--", "."
        )
    except (git.GitCommandError, OSError):
        return None
    return [p for p in listing.split("\0") if p]


def _walk(source: Path) -> list[str]:
    names = []
    for folder, dirs, files in os.walk(source):
        here = Path(folder)
        dirs[:] = sorted(
            d for d in dirs if d not in SKIPPED and not (here / d / "pyvenv.cfg").exists()
        )
        names += [(here / f).relative_to(source).as_posix() for f in files]
    return names


def seeded_files(src: Source, mutation: Mutation) -> tuple[dict[str, bytes], tuple[str, int]]:
    """The edited files and the anchor (file, line), checked to still parse."""
    edited, anchor = apply_edits(src.sources(), list(mutation.edits))
    for file, data in edited.items():
        try:
            ast.parse(data, filename=file)
        except SyntaxError as e:
            raise SeedError(f"{mutation.variant} leaves {file} unparseable: {e.msg}") from e
    return edited, anchor


def seed(src: Source, category: str, mutation: Mutation, out: Path) -> GroundTruth:
    """Write the seeded copy of src.root to out and return its ground truth."""
    edited, (file, line) = seeded_files(src, mutation)
    copy_repo(src.root, out)
    for rel, data in edited.items():
        target = out / rel
        target.write_bytes(data)
        os.utime(target)  # a fresh mtime: no stale bytecode is ever reused
    symbol = CodeIndex.build(out).enclosing_symbol(file, line)
    stage = taxonomy().category(category).stage
    return GroundTruth(category=category, stage=stage, file=file, symbol=symbol, line=line)
