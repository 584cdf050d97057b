"""How a hook runs: its body guarded (a tracer bug is counted and warned about, never
raised into the traced program), and the undo list that restores what was patched."""

from __future__ import annotations

import functools

from ..recorder import Recorder, StopTracing

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
