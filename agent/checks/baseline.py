"""The baseline run as the checks read it: its trace when training ran (else every item
skipped, with why), runtime observations, and facts read off it: an evaluation phase,
dead units, parameters the loss never reaches, stale copies, raw-scale inputs, small
BatchNorm batches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from torch_investigate.agent.checks.crash_origin import tracer_broke
from torch_investigate.agent.checks.locations import where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.records import Observation
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.checks.base import Evidence
    from torch_investigate.agent.core.session import Session
    from torch_investigate.tools.tracefile.sections import InitStat


def baseline_trace(session: Session) -> Trace | None:
    """The baseline's trace; None when the instrumentation broke the run (an exception out
    of the tracer's own code): what it recorded up to there describes our failure, not the
    program, and no check may read a finding from it."""
    run = session.baseline()
    t = run.trace if run is not None else None
    error = getattr(t, "error", None)  # a test's stand-in trace may carry no error field
    return None if error is not None and tracer_broke(error) else t


def runtime(
    text: str, frame: Frame | None = None, session: Session | None = None, **values: Any
) -> Observation:
    loc = where(session, frame) if session is not None else None
    return Observation(source="runtime", text=text, values=values, where=loc)


def skip_all(ev: Evidence, items: tuple[str, ...], reason: str) -> None:
    for item in items:
        ev.item(item, "skipped", reason)


def usable(session: Session, ev: Evidence, items: tuple[str, ...]) -> Trace | None:
    """The baseline trace if training ran; otherwise mark the items skipped with the reason."""
    if session.options.static_only:
        skip_all(ev, items, "static-only: the training path was not run")
        return None
    t = baseline_trace(session)
    run = session.baseline()
    if t is None and run is not None and run.trace is not None:
        skip_all(
            ev,
            items,
            "the instrumentation failed inside the program's run (a torch-investigate bug)",
        )
        return None
    if t is None or not t.ran_training:
        why = "the training path did not run" + (
            f" ({ev.facts.failure.message})" if ev.facts.failure else ""
        )
        skip_all(ev, items, why)
        return None
    return t


def eval_missing(t: Trace) -> tuple[str, str] | None:
    if t.batches.eval_fingerprints or t.eval_forwards():
        return None
    if t.status == "completed":
        return (
            "not_applicable",
            "the program has no evaluation phase (no forward under no_grad or eval mode)",
        )
    return (
        "skipped",
        f"no evaluation forward was reached before the run stopped ({t.stop_reason or t.status}); rerun with more --steps",
    )


# Rows that moved into at most one distinct value per this many rows moved in groups: a
# layer's units all alike, or one group per gate of a recurrent cell (3 or 4 of 3H or 4H).
GROUPED = 8


def numerically_dead(t: Trace) -> str | None:
    """A constant output explained by dead units or a degenerate init, not by the code."""
    for a in t.activations:
        if a.kind == "relu" and a.dead_units >= 0.95:
            return f"{fmt(100 * a.dead_units)}% of the ReLU units at {a.frame} are zero for every sample"
        if a.kind in ("sigmoid", "tanh") and a.inactive >= 0.95:
            return f"{fmt(100 * a.inactive)}% of the {a.kind} outputs at {a.frame} are saturated"
    for s in t.init_stats:
        # the output is read at the start: the weights as they start explain it
        if (
            len(s.get("shape", [])) >= 2
            and s["shape"][0] > 1
            and (s.get("std", 1.0) == 0.0 or s.get("identical_rows"))
        ):
            return f"{s['name']} starts with identical rows (std {fmt(s.get('std'))})"
    return None


def stuck_symmetric(s: InitStat) -> bool:
    """A trainable weight that started with identical rows (all zeros, a constant) whose
    rows training moved only in a few identical groups (every unit of a layer, of a gate,
    the same), or not at all: its units never came to differ. Rows that each went their
    own way (an embedding table, one row per feature, a zero-initialized last layer) were
    never stuck; a frozen weight is not an initialization."""
    shape = s.get("shape", [])
    if len(shape) < 2 or shape[0] <= 1 or s.get("requires_grad") is False:
        return False
    if not (s.get("identical_rows") or s.get("std", 1.0) == 0.0):
        return False
    moved = s.get("end_rows_moved")
    if moved is None:
        return True  # a trace without the end state: as it started
    return moved == 0 or s.get("end_distinct_moved", 0) <= max(1, moved // GROUPED)


def cut_parameters(t: Trace) -> list:
    """Parameters the forward uses, meant to train (an optimizer holds them, or there is no
    optimizer), that the loss's graph never reaches. A network no optimizer trains whose
    output the training uses detached (an EMA copy, a target network, a teacher) is
    unreachable by design and not among them. Nor are parameters a forward creates anew
    at every call: the next call's loss cannot reach the last call's layer, which
    params_created_in_forward reports as what it is. A parameter read only through a cut
    in the training forward (`self.emb.weight.data[ids]`) is used there too, though its
    module never runs: it counts when its gradient never arrived."""
    read_cut = {
        name
        for o in t.ops
        if o.kind in ("detach", "data") and o.in_forward and o.phases.get("train")
        for name in o.reaches or ()
    }
    return [
        p
        for p in t.parameters
        if p.is_leaf
        and p.requires_grad
        and (p.in_optimizer or not t.optimizers)
        and not p.created_in_forward
        and (
            (p.graph.walks > 0 and p.graph.reachable == 0)
            or (
                p.name in read_cut
                and not p.executed
                and p.grad.observed > 0
                and p.grad.none == p.grad.observed
            )
        )
    ]


def gradient_arrives(p) -> bool:
    """The loss's graph reaches the parameter, or a gradient arrived at it (a parameter
    read through an op the graph walk does not name, `weight[ids]`)."""
    return p.graph.reachable > 0 or (p.reached and p.grad.none < p.grad.observed)


MODULE_LESS = (
    "the model is a function of plain tensors, not an nn.Module: there is no model call to "
    "observe or probe (its parameters are followed through the loss's graph)"
)


def module_less(t: Trace) -> bool:
    """No nn.Module model ran, yet the loss reaches trainable leaves: plain tensors and a
    function (`W = torch.randn(..., requires_grad=True)`, `def predict(x)`)."""
    return not t.forwards and any(p.reached for p in t.parameters)


def raw_scale(x) -> float | None:
    """The largest magnitude of a float input summary far off unit scale (0..255 pixels,
    prices in the thousands), else None."""
    if x is None or not x.dtype.startswith("float") or x.std is None or x.max is None:
        return None
    big = max(abs(x.max or 0), abs(x.min or 0))
    return big if big > 50 and (x.std > 10 or abs(x.mean or 0) > 10) else None


def first_train_input(t: Trace):
    """The first training forward's first input summary, if any."""
    fws = t.train_forwards()
    return fws[0].inputs[0] if fws and fws[0].inputs else None


def small_batchnorm(t: Trace) -> list:
    """BatchNorm layers that ran in train mode on batches of one or two samples (or one or
    two values per channel): their batch statistics are noise."""
    return [
        b for b in t.batchnorm if (b.min_batch or 99) <= 2 or (b.min_values_per_channel or 99) <= 2
    ]


# backward calls at which the loss reached a leaf through the very same copy before it
# counts as a copy made once (the forward never sees the leaf's updates)
STALE_COPY = 3


def stale_copies(t: Trace) -> list:
    """Leaves the training loss reached only through one copy made once: the registration
    check's finding (stage 5); their absence from the optimizer follows from it."""
    return [p for p in t.parameters if p.reached and p.stale_steps >= STALE_COPY]
