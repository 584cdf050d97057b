"""`warnings.showwarning`: the program's warnings (the first 50) go into the trace."""

from __future__ import annotations

import warnings

from ..recorder import Recorder
from ..tensors import relpath
from .guard import Undo

MAX_WARNINGS = 50


def install(rec: Recorder, undo: Undo) -> None:
    orig_show = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if len(rec.warnings) < MAX_WARNINGS:
            rec.warnings.append(
                {
                    "category": category.__name__,
                    "message": str(message)[:300],
                    "file": relpath(filename),
                    "line": lineno,
                }
            )
        return orig_show(message, category, filename, lineno, file, line)

    warnings.showwarning = show
    undo.append(lambda: setattr(warnings, "showwarning", orig_show))
