"""A patch as text: the unified diff of edited files, and `git apply` on a copy.

Diffs carry `a/` and `b/` prefixes and a `diff --git` header per file, so `git apply`
(or `patch -p1`) takes them as they are; the same function applies the planner's diffs
and a model's, so both meet the same checks.
"""

from __future__ import annotations

import difflib
import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

_NO_NEWLINE = "\\ No newline at end of file\n"
_TARGET = re.compile(r"^\+\+\+ (?:b/)?(\S+)", re.MULTILINE)
_SOURCE = re.compile(r"^--- (?:a/)?(\S+)", re.MULTILINE)


class PatchError(Exception):
    """A diff that does not apply; the message says why in one line."""


def unified_diff(before: Mapping[str, bytes], after: Mapping[str, bytes]) -> str:
    """The diff that turns `before` into `after`, file by file (names relative, forward
    slashes); files equal on both sides are left out."""
    parts: list[str] = []
    for name in sorted(after):
        old, new = before.get(name, b""), after[name]
        if old == new:
            continue
        a = _lines(old.decode("utf-8", "replace"))
        b = _lines(new.decode("utf-8", "replace"))
        body = list(difflib.unified_diff(a, b, f"a/{name}", f"b/{name}", n=3))
        if not body:
            continue
        parts.append(f"diff --git a/{name} b/{name}\n")
        parts.extend(_terminated(body))
    return "".join(parts)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _terminated(lines: list[str]) -> list[str]:
    """Diff lines each ending in a newline; a last line without one (the file's own last
    line) gets git's marker after it."""
    out = []
    for line in lines:
        if line.endswith("\n"):
            out.append(line)
        else:
            out.extend([line + "\n", _NO_NEWLINE])
    return out


def diff_files(diff: str) -> list[str]:
    """The files a diff changes, as it names them (without the a/ b/ prefixes)."""
    names = [n for n in _TARGET.findall(diff) if n != "/dev/null"]
    if not names:
        names = [n for n in _SOURCE.findall(diff) if n != "/dev/null"]
    return list(dict.fromkeys(names))


def check_paths(diff: str) -> None:
    """Refuse a diff that reaches outside the repo (absolute paths, `..`)."""
    for name in diff_files(diff) + _SOURCE.findall(diff):
        parts = Path(name).parts
        if name.startswith("/") and name != "/dev/null" or ".." in parts:
            raise PatchError(f"the diff names a path outside the repo: {name}")


def apply_diff(root: Path, diff: str) -> None:
    """Apply `diff` to the files under `root` with `git apply` (root need not be a git
    repo); PatchError when it does not apply cleanly, and then nothing is changed."""
    if not diff.strip():
        raise PatchError("the diff is empty")
    check_paths(diff)
    if not diff.endswith("\n"):
        diff += "\n"
    # never let git find a repository above the copy and apply relative to that one
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(Path(root).resolve().parent)}
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    for check in (True, False):
        argv = ["git", "apply", "--recount", "--whitespace=nowarn"]
        if check:
            argv.append("--check")
        done = subprocess.run(
            argv, input=diff, cwd=root, env=env, capture_output=True, text=True, timeout=60
        )
        if done.returncode != 0:
            lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
            raise PatchError(lines[0] if lines else f"git apply exited with {done.returncode}")


@dataclass(frozen=True)
class Replacement:
    """One contiguous change of a file: `deleted` lines from `start` (1-based, in the file
    as written) replaced by `inserted` (whole lines, newlines included)."""

    file: str
    start: int
    deleted: int
    inserted: str


_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


def replacements(diff: str) -> list[Replacement]:
    """The diff's changes as line ranges of the original files (for SARIF `fixes`)."""
    out: list[Replacement] = []
    file = ""
    old_line = 0
    block_start: int | None = None
    deleted = 0
    inserted: list[str] = []

    def flush() -> None:
        nonlocal block_start, deleted, inserted
        if block_start is not None and (deleted or inserted):
            out.append(Replacement(file, block_start, deleted, "".join(inserted)))
        block_start, deleted, inserted = None, 0, []

    for line in diff.splitlines(keepends=True):
        if line.startswith("+++ "):
            flush()
            name = line[4:].strip()
            file = name[2:] if name.startswith("b/") else name
        elif line.startswith("--- ") or line.startswith("diff --git"):
            flush()
        elif (m := _HUNK.match(line)) is not None:
            flush()
            old_line = int(m.group(1))
            if m.group(2) == "0":  # an insertion into an empty range: it goes after that line
                old_line += 1
        elif line.startswith("\\"):
            continue
        elif line.startswith("-"):
            if block_start is None:
                block_start = old_line
            deleted += 1
            old_line += 1
        elif line.startswith("+"):
            if block_start is None:
                block_start = old_line
            inserted.append(line[1:])
        else:
            flush()
            old_line += 1
    flush()
    return out
