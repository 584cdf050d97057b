"""Stage 6, schedules: how the program steps its learning-rate schedulers, as the run
observed it (tools/trace/hooks/scheduler.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def stepped_from_two_lines(session: Session, ev: Evidence, t: Trace) -> bool:
    """One scheduler stepped from two lines of the program (once per batch and once per
    epoch): each line was written as if it were the only one, and the schedule advances
    at the sum of their rates. Placed at the line that stepped it most (a per-batch call
    added beside the per-epoch one); confirmed when the learning rate moved in the run."""
    twice = [s for s in t.schedulers if len(s.step_sites) >= 2]
    if not twice:
        return False
    s = twice[0]
    sites = sorted(s.step_sites.items(), key=lambda kv: -kv[1])
    lrs = [v for v in s.lr_after if v is not None]
    moved = len(lrs) >= 2 and min(lrs) != max(lrs)
    text = (
        f"{s.class_}.step() is called from {len(sites)} lines of the program, "
        + ", ".join(f"{site} ({n} times)" for site, n in sites)
        + f", in {t.n_steps} optimizer steps: the schedule advances at the sum of their rates"
    )
    if moved:
        text += f"; the learning rate went from {fmt(lrs[0])} to {fmt(lrs[-1])} in the run"
    file, _, line = sites[0][0].rpartition(":")
    frame = Frame(file=file, line=int(line)) if file and line.isdigit() else s.step_frame
    ev.find(
        "scheduler_misuse",
        status="confirmed" if moved else "plausible",
        confidence="high" if moved else "medium",
        evidence=[runtime(text, frame, session, sites=dict(sites))],
        where=where(session, frame) or first_static_location(session, "scheduler_misuse"),
        why="a schedule stepped from two places runs faster than either place intends: the learning rate decays (or warms up) many times too early",
        confirm="print(scheduler.get_last_lr()) each epoch; keep one scheduler.step() call at the cadence the schedule is written for",
    )
    ev.item("call_order", "failed", text)
    return True
