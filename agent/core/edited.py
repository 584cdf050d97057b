"""Runs of the training path in a second copy of the session's workspace with one source
edit: the smallest change a static suspicion names, run to see what it changes. The
user's repo is never touched, nor the session's own copy; the second copy goes when the
runs are done."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from torch_investigate.agent.core.runs import Runner
from torch_investigate.tools.sandbox import Sandbox, SandboxError

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


@dataclass(frozen=True)
class TextEdit:
    """Bytes `start:end` of `file` (relative to the repo), which must read `old`,
    replaced by `new`."""

    file: str
    start: int
    end: int
    old: str
    new: str


class EditError(Exception):
    """The edit does not match the copy's text."""


def apply(root: Path, edit: TextEdit) -> None:
    path = root / edit.file
    data = path.read_bytes()
    if data[edit.start : edit.end].decode("utf-8", "replace") != edit.old:
        raise EditError(f"{edit.file}: bytes {edit.start}-{edit.end} are not `{edit.old}`")
    path.write_bytes(data[: edit.start] + edit.new.encode() + data[edit.end :])


@contextmanager
def edited_runner(session: Session, edits: list[TextEdit]) -> Iterator[Runner | None]:
    """A Runner of the session's command in a copy of its workspace with `edits` applied;
    None when the session has no runner or the copy cannot be made or edited."""
    base, sandbox0 = session.runner, session.sandbox
    if base is None or sandbox0 is None:
        yield None
        return
    holder = Path(tempfile.mkdtemp(prefix="ti-edited-"))
    sandbox: Sandbox | None = None
    try:
        root = holder / session.workspace.root.name
        shutil.copytree(session.workspace.root, root, symlinks=True)
        for e in edits:
            apply(root, e)
        sandbox = Sandbox(
            root,
            python=sandbox0.python,
            limits=sandbox0.limits,
            isolation=session.options.isolation,
            origin=session.repo,
        )
        runner = Runner(
            sandbox, base.argv, steps=base.steps, timeout_s=base.timeout_s, env=base.env
        )
    except (OSError, EditError, SandboxError):
        runner = None
    try:
        yield runner
    finally:
        if sandbox is not None:
            sandbox.close()
        shutil.rmtree(holder, ignore_errors=True)
