"""Stage 5: parameters an optimizer holds with requires_grad=False are a defect when they
were meant to train (taxonomy: frozen_parameters). Handing `model.parameters()` to the
optimizer with a part frozen on purpose (a pretrained backbone, a fixed random projection)
is ordinary PyTorch: the optimizer skips them. The run tells the two apart: they were
meant to train when nothing the optimizer holds trains at all, or when training them
makes the loss fall beyond chance and either several times further than as written or to
the level the run as written ends at several times sooner (the freeze makes learning
fail, not merely a little slower), or, where the frozen run plateaus several times above
the loss the trained one reaches, when training them also cuts the program's own held-out
error by a quarter (capacity held back on purpose leaves held-out data where it was). A
frozen random layer that does not slow learning is, at run time, a fixed projection: left
a suspicion. One more sign of intent: an unfreeze the program ran mid-training (first
once the optimizer had stepped: the end of a warm-up) that found every tensor it reached
already training while the parameters it froze stay frozen; training them must then cut
the program's own held-out error by a quarter, and by more than reseeding moves it. The
same held-out test decides for parameters the program froze that run in the training
forward while still holding the values their initializer wrote (nothing trained or
loaded them: the model learns on a fixed random part); a fixed random part that does not
hurt the held-out reading stays a suspicion. A freeze switched on by a flag of a settings
file the program names is placed at that value."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.effects import intervene
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.merge import held_out_beyond_chance, held_out_helps
from torch_investigate.agent.checks.numbers import listed
from torch_investigate.tools.code.config_files import flag_setting
from torch_investigate.tools.records import Location, Observation
from torch_investigate.tools.tracefile.freeze_records import IdleUnfreeze
from torch_investigate.tools.tracefile.records import Frame
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# the "several times slower": the falls from the first loss trained and frozen, or
# the steps the frozen run takes to reach its own final loss against the trained run's
SEVERAL = 3.0


def frozen_meant_to_train(
    session: Session, t: Trace, frozen: list, *, change: dict | None = None, what: str = ""
) -> tuple[bool, list[Observation]]:
    """(meant to train, the evidence). `change` trains them (by default: the frozen
    parameters the optimizer holds set to train)."""
    held = [p for p in t.parameters if p.registered and (p.frozen_steps > 0 or p.in_optimizer)]
    if change is None and held and all(not p.requires_grad for p in held):
        text = (
            f"every one of the {len(held)} parameters the optimizer holds is frozen: nothing trains"
        )
        return True, [runtime(text, None, session)]
    change = change or {"unfreeze_params": True}
    eff = intervene(
        session, change, what or "with the frozen parameters the optimizer holds set to train"
    )
    written = _reached(session.baseline().trace, eff.steps, eff.base_final)
    trained = _reached(session.runner.get(change).trace, eff.steps, eff.base_final)
    # the loss falls several times further trained than frozen (frozen, it barely falls),
    # or it gets where the frozen run ends several times sooner
    further = (
        eff.first is not None
        and eff.base_final is not None
        and eff.iv_final is not None
        and eff.first - eff.iv_final >= SEVERAL * max(eff.first - eff.base_final, 0.0)
    )
    sooner = bool(written and trained and SEVERAL * trained <= written)
    fails = bool(eff.improved and (further or sooner))
    held = None
    idle = idle_unfreeze(t, frozen) if change == {"unfreeze_params": True} else None
    if idle is not None and not fails:
        # the program meant to open a phase that trains them: its own held-out reading,
        # not the training loss's speed, says whether the part it missed matters
        held = held_out_beyond_chance(session, change, _idle_text(idle))
        fails = held is not None
    untrained = untrained_frozen(t, frozen)
    if untrained and not fails:
        # nothing trained or loaded them before the freeze: whether learning on that fixed
        # random part costs anything is for the program's own held-out reading to say
        held = held_out_beyond_chance(session, change, untrained)
        fails = held is not None
    if eff.improved and not fails and _plateaus(eff):
        # trained they end several times lower where frozen the run plateaus: whether that
        # is capacity the freeze holds back on purpose or learning it stops is for the
        # program's own held-out reading to say, the fix run as long as the run as written
        held = held_out_helps(session, change)
        fails = held is not None
    tail = (
        f"; trained, they reach the loss the run as written ends at in {trained} steps "
        f"instead of {written}"
        if written and trained
        else ""
    )
    if not fails:
        tail += "; not several times faster, so the freeze reads as deliberate (a fixed or pretrained part)"
    obs = eff.observation()
    return fails, [obs.model_copy(update={"text": obs.text + tail}), *([held] if held else [])]


def idle_unfreeze(t: Trace, frozen: list) -> tuple[IdleUnfreeze, Frame] | None:
    """An unfreeze the program first ran once the optimizer had stepped, that found every
    tensor it reached already training, while parameters a call of the program froze stay
    frozen: with the frame where its call path parts from the one that froze them (the
    call naming the wrong modules, when one helper does both)."""
    calls = t.freeze_calls
    froze = [calls.frozen[p.name] for p in frozen if p.name in calls.frozen]
    if not froze:
        return None
    shared = {(f.file, f.line) for f in froze[0]}
    for idle in calls.idle_unfreezes:
        parted = [f for f in idle.stack if (f.file, f.line) not in shared]
        if parted:
            return idle, parted[-1]
    return None


def untrained_frozen(t: Trace, frozen: list) -> str:
    """Why the frozen parameters are a random part the model was meant to be fine-tuned
    on, when every one of them runs in the training forward and still holds the values
    its initializer wrote (no step, load or copy moved it), and they hold more of the
    weights the forward runs than the parameters that train do (the shape of a kept
    backbone under a trained head, which only a trained backbone makes sense of; a small
    fixed random layer inside a trained model is a design); else ""."""
    still = set(t.freeze_calls.untrained)
    if not frozen or not all(p.executed and p.name in still for p in frozen):
        return ""
    kept = sum(p.numel for p in frozen)
    trains = sum(p.numel for p in t.parameters if p.executed and p.requires_grad)
    if kept <= trains:
        return ""
    return (
        f"the {len(frozen)} frozen parameters ({kept} weights, against {trains} that train) "
        "run in every training forward and still hold the values their initializer wrote "
        "(no optimizer step, load or copy ever changed them): the model learns on a fixed "
        "random part"
    )


def freeze_place(session: Session, frame: Frame | None) -> Location | None:
    """The value of the settings file's flag that switched the freeze at `frame` on (the
    value the user changes), else the freezing line itself."""
    found = flag_setting(session.index, frame.file, frame.line) if frame else None
    return Location(file=found[0], line=found[1]) if found else where(session, frame)


def unfreeze_place(session: Session, t: Trace, frozen: list) -> Location | None:
    """Where the program meant to unfreeze them, when the run saw that unfreeze."""
    found = idle_unfreeze(t, frozen)
    return where(session, found[1]) if found else None


def _idle_text(idle: tuple[IdleUnfreeze, Frame]) -> str:
    return (
        f"an unfreeze at {idle[1]} first ran after {idle[0].first_step} optimizer steps and "
        f"found all {idle[0].tensors} tensors it set to train already training, while the "
        "parameters the program froze stayed frozen"
    )


def _plateaus(eff) -> bool:
    """The frozen run settles several times above the loss the trained run reaches (both
    falling from the same first loss): the freeze caps how far the loss can fall."""
    return (
        eff.base_final is not None
        and eff.iv_final is not None
        and eff.base_final > 0
        and eff.iv_final >= 0
        and SEVERAL * eff.iv_final <= eff.base_final
    )


def _reached(t: Trace | None, steps: int, level: float | None) -> int | None:
    """The first step at which the loss, averaged over a short window, is at `level` or
    below (learning speed: how long a run takes to get where the other ends)."""
    if t is None or level is None or steps < 2:
        return None
    curve = [v for v in t.optimizer_curve(None)[:steps] if v is not None]
    w = max(1, len(curve) // 20)
    for k in range(w, len(curve) + 1):
        if sum(curve[k - w : k]) / w <= level:
            return k
    return None


def left_out(session: Session, ev: Evidence, t: Trace, problems: list[str]) -> None:
    """Parameters a line of the program froze, that run in the training forward and that
    no optimizer holds (the optimizer built from the trainable rest): a pretrained part
    kept fixed on purpose, or a freeze applied to the wrong part (`requires_grad_(name in
    frozen)` where `not in` was meant). Only the run tells: trained and given to the
    optimizer, they must make learning fail as written (the test of frozen parameters the
    optimizer holds) and also cut the program's own held-out error by a quarter; anything
    less leaves the freeze deliberate."""
    frozen = [
        p for p in t.parameters
        if p.registered and p.executed and not p.requires_grad and not p.in_optimizer
        and p.frozen_at is not None and p.frozen_steps == 0
    ]  # fmt: skip
    if not frozen or not t.optimizers or session.runner is None:
        return
    change = {"train_left_out": True}
    meant, evidence = frozen_meant_to_train(
        session, t, frozen, change=change,
        what="with the parameters the program froze trained and given to the optimizer",
    )  # fmt: skip
    held = held_out_helps(session, change) if meant else None
    if held is None:
        return
    if any(e.values == held.values for e in evidence):
        held = None  # the test that found them meant to train already read it
    names = [p.name for p in frozen]
    text = (
        f"{len(frozen)} parameters that run in every training forward were frozen by the "
        f"program ({frozen[0].frozen_at}) and no optimizer holds them: {listed(names)}"
    )
    ev.find(
        "frozen_parameters",
        status="confirmed",
        confidence="high",
        evidence=[
            runtime(text, None, session, frozen=names[:20]),
            *evidence,
            *([held] if held else []),
        ],
        where=first_static_location(session, "frozen_parameters")
        or freeze_place(session, frozen[0].frozen_at)
        or places.unfreeze_that_ran(session),
        why="the frozen parameters get no gradient and no optimizer moves them: the part of the model meant to learn stays at its initialization",
        confirm=f"print([n for n, p in model.named_parameters() if not p.requires_grad]); check the freeze condition that left {names[0]} frozen",
    )
    problems.append(text)
