"""Patches and hooks that feed the recorder, installed before the program runs.

One module per thing patched, each with `install(recorder, undo)` (`undo` collects the
callables that restore it). Every hook body is guarded: an error inside the tracer is
counted, never raised into the program, except `StopTracing`, which ends the program on
purpose. Hooks observe; what changes the program under an intervention flag goes
through the seams in `..interventions`.
"""

from __future__ import annotations

from ..recorder import Recorder
from . import (
    backward,
    clip,
    cuda,
    freeze,
    functional,
    init_values,
    legacy_variable,
    loader,
    mode_switch,
    module_call,
    module_init,
    optimizer,
    scheduler,
    seeds,
    torch_compile,
    warning_log,
)
from .built_at import repo_frame_of

# installed in this order, undone in reverse
ALWAYS = (cuda, torch_compile, warning_log, backward, optimizer, functional, seeds)
WHEN_TRACING = (
    module_call,
    module_init,
    mode_switch,
    freeze,
    init_values,
    clip,
    scheduler,
    loader,
    legacy_variable,
)


def install(rec: Recorder) -> list:
    """Install every hook; returns the undo callables (run in reverse)."""
    undo: list = []
    for hook in ALWAYS:
        hook.install(rec, undo)
    if rec.cfg.trace:
        for hook in WHEN_TRACING:
            hook.install(rec, undo)
    return undo


__all__ = ["install", "repo_frame_of"]
