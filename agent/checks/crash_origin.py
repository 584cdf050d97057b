"""Whose crash it is: an exception the traced run raised comes from the program (a target
out of range, shapes that do not match: a finding about the program) or from the
instrumentation's own code (a tracer bug, never evidence about the program)."""

from __future__ import annotations

from pathlib import Path

from torch_investigate.tools import trace as trace_package
from torch_investigate.tools.sandbox.staging import TRACE_PACKAGE

# Written on each line of the tracer that makes a call on the program's behalf (a torch
# function, a loss, a module's forward, backward, a step): an exception raised below it
# is the program's (a target out of range, shapes that do not match), not the tracer's.
FORWARDS_PROGRAM_CALL = "# the program's own call"
_TRACER_SOURCE = Path(trace_package.__file__).resolve().parent


def tracer_broke(err) -> bool:
    """The exception was raised by the tracer's own code: the innermost frame outside the
    Python and torch libraries is the instrumentation's, and not a line that forwards the
    program's own call."""
    for f in reversed(err.frames):
        file = f.file or ""
        if TRACE_PACKAGE in file:
            return not _forwards_program_call(file, f.line)
        if file.startswith("<") or "site-packages" in file or "/lib/python" in file:
            continue
        return False
    return False


def _forwards_program_call(file: str, line: int | None) -> bool:
    """The tracer's line (in its staged copy) is a call made for the program: the marker
    on it or on the lines of the same statement a formatter wrapped."""
    rel = file.split(TRACE_PACKAGE, 1)[1].lstrip("/\\")
    try:
        lines = (_TRACER_SOURCE / rel).read_text().splitlines()
    except OSError:
        return False
    if not line or line > len(lines):
        return False
    statement = lines[line - 1 : line + 3]
    for text in statement:
        if FORWARDS_PROGRAM_CALL in text:
            return True
        if text.rstrip().endswith(")") and text is not statement[0]:
            break
    return False
