"""What every hook module shares: the guard around hook bodies and where objects were
built."""

from __future__ import annotations

import functools
import sys

from ..recorder import Recorder, StopTracing
from ..tensors import in_repo, relpath

Undo = list  # callables that restore what was patched, run in reverse order


def guarded(fn):
    """Run tracer logic; count its failures instead of breaking the traced program."""

    @functools.wraps(fn)
    def wrapper(rec: Recorder, *a, **k):
        try:
            return fn(rec, *a, **k)
        except StopTracing:
            raise
        except Exception as e:  # noqa: BLE001 - the program must not see tracer bugs
            rec.counts["tracer_errors"] += 1
            if rec.counts["tracer_errors"] <= 5:
                rec.warnings.append(
                    {
                        "category": "TracerError",
                        "message": f"{fn.__name__}: {type(e).__name__}: {e}"[:300],
                    }
                )
            return None

    return wrapper


def construction_frame(obj):
    """Where an object was built: the innermost repo frame outside its own __init__ chain.

    Called directly from a patched __init__ (frame 2 is that __init__'s caller)."""
    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_name == "__init__" and f.f_locals.get("self") is obj:
            f = f.f_back
            continue
        fr = repo_frame_of(f)
        if fr is not None:
            return fr
        f = f.f_back
    return None


def repo_frame_of(f):
    if in_repo(f.f_code.co_filename):
        return (relpath(f.f_code.co_filename), f.f_lineno, f.f_code.co_name)
    return None


def lr_of(group: dict) -> float:
    lr = group.get("lr", float("nan"))
    try:
        return float(lr)
    except (TypeError, ValueError):
        return float("nan")
