"""`investigate fix --apply`: verified patches written into the user's repo, only when
asked, and only where git can undo them.

The repo must be a git work tree without uncommitted changes (`--force` writes anyway).
Each verified patch, one per defect, is applied in turn to a scratch copy of the files
it touches (`git apply`, so a patch that no longer fits is refused, not forced); only
then are the changed files written back. Unverified and dropped patches are never
written.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from torch_investigate.agent.fix.diff import PatchError, apply_diff, diff_files
from torch_investigate.tools.fix_records import Patch
from torch_investigate.tools.gitfacts import git_facts


class ApplyRefused(Exception):
    """--apply cannot write here; the message says why and what would allow it."""


def check_writable(repo: Path, force: bool) -> None:
    """Refuse before anything runs: a dirty git tree or no git at all, unless --force."""
    if force:
        return
    facts = git_facts(repo, [])
    if not facts.is_repo:
        raise ApplyRefused(
            f"--apply: {repo} is not a git work tree, so nothing could undo the change; "
            "pass --force to write anyway"
        )
    if facts.dirty:
        shown = ", ".join(facts.dirty[:5]) + (" ..." if len(facts.dirty) > 5 else "")
        raise ApplyRefused(
            f"--apply: the repo has uncommitted changes ({shown}); commit or stash them, "
            "or pass --force"
        )


def apply_patches(repo: Path, patches: list[Patch]) -> list[str]:
    """Write the verified patches into repo; returns one note per patch (applied or why
    not) and marks the applied ones."""
    notes: list[str] = []
    verified = [p for p in patches if p.verified]
    if not verified:
        return ["--apply: no verified patch, so the repo was not changed"]
    touched = sorted({f for p in verified for f in diff_files(p.diff)})
    scratch = Path(tempfile.mkdtemp(prefix="ti-apply-"))
    try:
        for name in touched:
            src = repo / name
            if src.is_file():
                (scratch / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, scratch / name)
        applied: list[Patch] = []
        for p in verified:
            try:
                apply_diff(scratch, p.diff)
            except PatchError as e:
                notes.append(f"--apply: {p.id} ({p.category}) not applied: {e}")
                continue
            applied.append(p)
        changed = []
        for name in touched:
            new = scratch / name
            if new.is_file() and (
                not (repo / name).is_file() or new.read_bytes() != (repo / name).read_bytes()
            ):
                (repo / name).write_bytes(new.read_bytes())
                changed.append(name)
        for p in applied:
            p.applied = True
            notes.append(
                f"--apply: {p.id} ({p.category}) written to {', '.join(diff_files(p.diff))}"
            )
        if len(applied) > 1:
            notes.append(
                "--apply: each patch was verified on its own; run `investigate` again to check "
                "them together"
            )
        if not changed:
            notes.append("--apply: no file changed")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return notes
