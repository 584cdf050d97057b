"""Stage 6: backward calls the optimizer never steps after. No step at all, or a reset
after every backward that throws most gradients away, is the defect as it stands; a step
every k backward calls is also what gradient accumulation does on purpose (`loss / k`, a
step every k micro-batches), so there the code must show the step after the batch loop (a
static suspicion the counts then bear out), or a step after every backward must learn
beyond chance, before the rare step is the defect. (Compared over optimizer steps, a run
that steps once an epoch gives the change only as many steps to show it.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.effects import intervene
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def step_not_called(
    session: Session, ev: Evidence, t: Trace, text: str, *, accumulating: bool = False
) -> None:
    eff = intervene(
        session, {"step_after_backward": True}, "with optimizer.step() after every backward"
    )
    # a static suspicion that the step is written after the batch loop is what the
    # counts then show: the loop as written, not accumulation
    after_loop = first_static_location(session, "step_not_called")
    proven = eff.improved or not accumulating or after_loop is not None
    ev.find(
        "step_not_called",
        status="confirmed" if proven else "plausible",
        confidence="high" if proven else "low",
        evidence=[runtime(text, t.event_frames.get("backward"), session), eff.observation()],
        where=after_loop
        or where(session, t.event_frames.get("step") or t.event_frames.get("backward")),
        why="without optimizer.step() in every iteration the gradients are computed and discarded; the weights stay (almost) where they started",
        confirm="count optimizer.step() calls per epoch (should equal the number of batches) and move it into the batch loop",
    )
    if proven:
        ev.item("updates", "failed", text)
    else:
        ev.item(
            "updates",
            "passed",
            f"{text}; a step after every backward does not learn beyond chance, so the "
            "accumulation reads as deliberate",
        )
