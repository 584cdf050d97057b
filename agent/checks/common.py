"""Helpers shared by the stage checks: locations, loss-curve statistics, intervention
comparisons and the chance-level reference values."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import TYPE_CHECKING, Any

from torch_investigate.agent.core.curves import (  # final_level: one home, re-used
    final_level,
    window,
)
from torch_investigate.tools.records import Finding, Location, Observation
from torch_investigate.tools.trace_models import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.checks.base import Evidence
    from torch_investigate.agent.core.runs import Run
    from torch_investigate.agent.core.session import Session

# interventions that change what the loss computes (its inputs' meaning): their loss values
# are not comparable with the run as written, only with each other
LOSS_CHANGING = frozenset({"strip_prob", "swap_loss_args", "fix_broadcast"})
LN2 = math.log(2.0)  # 0.693147: BCE at logit 0, or CE of two equal logits


def compared_steps(session: Session) -> int:
    """The steps a rerun with one change makes (and the test a finding proposes compares)."""
    from torch_investigate.agent.core.runs import PROBE_STEPS

    return min(session.options.steps, PROBE_STEPS)


def percent_range(lo: float, hi: float) -> str:
    """`100%`, or `40-100%` when the values differ."""
    low, high = fmt(100 * lo), fmt(100 * hi)
    return f"{low}%" if low == high else f"{low}-{high}%"


def of_chance(level: float, chance: float) -> str:
    """`81% of the chance level 1.099`: a level said against an uninformed model's."""
    return f"{100 * level / chance:.0f}% of the chance level {fmt(chance)}"


def change(fraction: float, better: str = "improves", worse: str = "worsens") -> str:
    """A relative change in words: `improves 19.81%`, `worsens 12.35%` (never `improves
    -12.35%`)."""
    if fraction == 0:
        return "does not change"
    return f"{better if fraction > 0 else worse} {fmt(100 * abs(fraction))}%"


def where(session: Session, frame: Frame | None) -> Location | None:
    """A runtime frame as a report location, with its enclosing symbol from the index."""
    if frame is None:
        return None
    return Location(
        file=frame.file,
        line=frame.line,
        symbol=session.index.enclosing_symbol(frame.file, frame.line),
    )


def fmt(v: float | None, digits: int = 4) -> str:
    if v is None:
        return "n/a"
    if v != v:
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0:
        return "0"
    if abs(v) >= 1e4 or abs(v) < 1e-3:
        return f"{v:.{digits - 1}e}"
    return f"{v:.{digits}g}"


def baseline_trace(session: Session) -> Trace | None:
    run = session.baseline()
    return run.trace if run is not None else None


def runtime(
    text: str, frame: Frame | None = None, session: Session | None = None, **values: Any
) -> Observation:
    loc = where(session, frame) if session is not None else None
    return Observation(source="runtime", text=text, values=values, where=loc)


def attribute_location(session: Session, cls: str, attribute: str) -> Location | None:
    """Where `self.<attribute>` is assigned in `cls.__init__` (or anywhere in the class)."""
    import re

    base = attribute.split("[")[0].split(".")[0]
    pattern = re.compile(rf"\bself\.{re.escape(base)}\s*(:[^=]*)?=(?!=)")
    for sym in session.index.symbols:
        if sym.qualname not in (f"{cls}.__init__", cls):
            continue
        lines = session.index.lines(sym.file)
        for n in range(sym.line_start, min(sym.line_end, len(lines)) + 1):
            if pattern.search(lines[n - 1]):
                return Location(
                    file=sym.file, line=n, symbol=session.index.enclosing_symbol(sym.file, n)
                )
    return None


def init_location(session: Session, cls: str) -> Location | None:
    sym = next((s for s in session.index.symbols if s.qualname == f"{cls}.__init__"), None)
    return Location(file=sym.file, line=sym.def_line, symbol=sym.qualname) if sym else None


def static_in(session: Session, *categories: str) -> list[Finding]:
    return [f for f in session.static_findings if f.category in categories]


def first_static_location(session: Session, *categories: str) -> Location | None:
    for f in static_in(session, *categories):
        if f.file:
            return Location(file=f.file, line=f.line, symbol=f.symbol)
    return None


# ---- loss curves ----------------------------------------------------------------------


@dataclass
class CurveStats:
    """Verdicts read the smoothed `first`/`last` (means of up to 5 values at each end);
    texts state `first_recorded` and `settled`, the statistics of the runs table
    (`agent.curves`), so a reader sees one number for one thing."""

    n: int
    first: float  # mean of the first k values (k = n // 10, 1..5)
    last: float  # mean of the last k values
    minimum: float
    rel_drop: float  # (first - last) / |first|
    nonfinite: int
    spread: float  # median |step-to-step change| relative to the level, second half
    first_recorded: float = math.nan  # the first finite loss
    settled: float = math.nan  # median of the last tenth (at least 5 values)

    @property
    def settled_drop(self) -> float:
        """How far the loss fell, as the texts state it: first recorded -> settled."""
        return (self.first_recorded - self.settled) / (abs(self.first_recorded) + 1e-12)


def curve_stats(raw: list[float | None]) -> CurveStats | None:
    vals = [v for v in raw if v is not None and math.isfinite(v)]
    nonfinite = len(raw) - len(vals)
    if not vals:
        return None
    k = max(1, min(5, len(vals) // 10))
    first = sum(vals[:k]) / k
    last = sum(vals[-k:]) / k
    half = vals[len(vals) // 2 :]
    diffs = [abs(b - a) for a, b in zip(half, half[1:], strict=False)]
    level = abs(median(half)) + 1e-12
    spread = (median(diffs) / level) if diffs else 0.0
    return CurveStats(
        n=len(vals),
        first=first,
        last=last,
        minimum=min(vals),
        rel_drop=(first - last) / (abs(first) + 1e-12),
        nonfinite=nonfinite,
        spread=spread,
        first_recorded=vals[0],
        settled=final_level(vals),
    )


@dataclass
class Effect:
    """How an intervention changed the loss the run settled at."""

    base_final: float | None
    iv_final: float | None
    first: float | None
    improved: bool
    text: str
    base_nonfinite: int = 0
    iv_nonfinite: int = 0
    interventions: dict[str, Any] | None = None  # the change, to combine it with others
    train_loader: str | None = None

    def observation(self) -> Observation:
        """The comparison as intervention evidence, with its numbers (and the change
        itself, so the root-cause choice can combine two fixes)."""
        values: dict[str, Any] = {
            "loss_as_written": self.base_final,
            "loss_with_change": self.iv_final,
            "relative_improvement": round(self.relative, 4),
            "improved": self.improved,
        }
        if self.interventions:
            values["interventions"] = self.interventions
            values["train_loader"] = self.train_loader
            # a change to the loss itself makes the two losses different quantities
            values["same_objective"] = not (set(self.interventions) & LOSS_CHANGING)
        text = self.text
        if values.get("same_objective") is False:
            text += " (the change alters the loss itself, so the two values are different quantities: the runtime observation is the proof)"
        return Observation(source="intervention", text=text, values=values)

    @property
    def relative(self) -> float:
        if self.base_final is None or self.iv_final is None:
            return 0.0
        scale = max(abs(self.first or 0.0), abs(self.base_final), 1e-12)
        return (self.base_final - self.iv_final) / scale


def compare(base: Run, iv: Run, what: str, *, steps: int | None = None) -> Effect:
    """Settled loss with and without the intervention, over the same number of steps."""
    w = window(
        base.trace.raw_curve() if base.trace else [],
        iv.trace.raw_curve() if iv.trace else [],
        steps,
    )
    i = w.other
    bnf, inf_ = w.base_nonfinite, w.other_nonfinite
    bf, if_ = w.base_settled, w.settled
    first = w.base_first
    if iv.trace is None or not i:
        return Effect(
            bf,
            if_,
            first,
            False,
            f"the run {what} produced no loss values ({iv.summary().message or iv.summary().status})",
            bnf,
            inf_,
        )
    if bnf and not inf_:
        return Effect(
            bf,
            if_,
            first,
            True,
            f"{what}: the loss stays finite for {len(i)} steps (settles at {fmt(if_)}), while as written {bnf} of {w.base_steps} steps are non-finite",
            bnf,
            inf_,
        )
    if bf is None:
        return Effect(
            bf, if_, first, False, f"{what}: no finite baseline loss to compare", bnf, inf_
        )
    eff = Effect(bf, if_, first, False, "", bnf, inf_)
    improved = if_ is not None and if_ < bf and eff.relative > 0.05 and if_ < 0.85 * bf + 1e-12
    eff.improved = improved
    verb = "falls to" if improved else "settles at"
    eff.text = (
        f"{what}: after {len(i)} steps the loss {verb} {fmt(if_)} instead of {fmt(bf)} as written"
        f" (the run as written starts at {fmt(first)})"
    )
    return eff


def intervene(
    session: Session, interventions: dict[str, Any], what: str, *, train_loader: str | None = None
) -> Effect:
    """Rerun the training path with one change and compare its loss with the baseline's."""
    run = session.runner.get(interventions, train_loader=train_loader)
    effect = compare(session.baseline(), run, what)
    effect.interventions, effect.train_loader = dict(interventions), train_loader
    return effect


def is_classification(fn: str) -> bool:
    return fn in (
        "cross_entropy",
        "nll_loss",
        "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
    )


def element_chance(fn: str, input_shape: list[int]) -> float | None:
    """Loss of an uninformed classifier per element: ln C for C classes, ln 2 for one
    binary logit."""
    if fn in ("binary_cross_entropy", "binary_cross_entropy_with_logits"):
        return LN2
    if fn in ("cross_entropy", "nll_loss") and len(input_shape) >= 2 and input_shape[1] > 1:
        return math.log(input_shape[1])
    return None


def summed_elements(c) -> int | None:
    """How many elements a loss call adds up (reduction='sum'), None when it averages."""
    if c.reduction != "sum":
        return None
    return c.contributing_elements or c.total_elements or None


def chance_level(c) -> float | None:
    """An uninformed classifier's value of this loss call: the per-element level, times
    the elements it adds up when it sums them (a summed loss is not compared with a
    per-element level)."""
    per = element_chance(c.fn, c.input.shape)
    if per is None or c.reduction == "sum" and summed_elements(c) is None:
        return None
    return per * (summed_elements(c) or 1)


def swapped(c) -> bool:
    """A loss call whose first argument is data and whose second comes from the model."""
    return (not c.input.requires_grad) and c.target.requires_grad


def target_of(c):
    """The operand that holds the targets, whichever slot it was passed in."""
    return c.input if swapped(c) else c.target


def prediction_of(c):
    return c.target if swapped(c) else c.input


def plateau(t: Trace, *, above: float, flat: float) -> tuple[float, float] | None:
    """(level, chance) when the training loss stopped improving over the second half of
    the run (it fell less than `flat` of itself) while still above `above` x the chance
    level; None otherwise or when the loss has no chance level."""
    calls = t.train_loss_calls()
    chance = chance_level(calls[0]) if calls else None
    curve = t.curve()
    if chance is None or len(curve) < 40:
        return None
    half = curve[len(curve) // 2 :]
    k = max(3, len(half) // 5)
    start, end = sum(half[:k]) / k, sum(half[-k:]) / k
    if end > above * chance and (start - end) < flat * abs(start):
        return end, chance
    return None


# ---- the baseline trace and where things are ------------------------------------


def skip_all(ev: Evidence, items: tuple[str, ...], reason: str) -> None:
    for item in items:
        ev.item(item, "skipped", reason)


def usable(session: Session, ev: Evidence, items: tuple[str, ...]) -> Trace | None:
    """The baseline trace if training ran; otherwise mark the items skipped with the reason."""
    if session.options.static_only:
        skip_all(ev, items, "static-only: the training path was not run")
        return None
    t = baseline_trace(session)
    if t is None or not t.ran_training:
        why = "the training path did not run" + (
            f" ({session.failure.message})" if session.failure else ""
        )
        skip_all(ev, items, why)
        return None
    return t


def loader_location(session: Session, t: Trace) -> Location | None:
    ld = t.train_loader()
    return where(session, ld.frame) if ld is not None else None


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


def model_location(session: Session, t: Trace) -> Location | None:
    """The model's forward method, from the index (the class the trace saw)."""
    if not t.models:
        return None
    name = t.models[0].class_
    sym = next(
        (s for s in session.index.find_symbols("forward") if s.qualname == f"{name}.forward"), None
    )
    if sym is not None:
        return Location(file=sym.file, line=sym.def_line, symbol=sym.qualname)
    return where(session, t.models[0].frame)


def numerically_dead(t: Trace) -> str | None:
    """A constant output explained by dead units or a degenerate init, not by the code."""
    for a in t.activations:
        if a.kind == "relu" and a.dead_units >= 0.95:
            return f"{fmt(100 * a.dead_units)}% of the ReLU units at {a.frame} are zero for every sample"
        if a.kind in ("sigmoid", "tanh") and a.inactive >= 0.95:
            return f"{fmt(100 * a.inactive)}% of the {a.kind} outputs at {a.frame} are saturated"
    for s in t.init_stats:
        if (
            len(s.get("shape", [])) >= 2
            and s["shape"][0] > 1
            and (s.get("std", 1.0) == 0.0 or s.get("identical_rows"))
        ):
            return f"{s['name']} starts with identical rows (std {fmt(s.get('std'))})"
    return None


def cut_parameters(t: Trace) -> list:
    """Parameters the forward uses, meant to train (an optimizer holds them, or there is no
    optimizer), that the loss's graph never reaches. A network no optimizer trains whose
    output the training uses detached (an EMA copy, a target network, a teacher) is
    unreachable by design and not among them."""
    return [
        p
        for p in t.parameters
        if p.graph.walks > 0
        and p.is_leaf
        and p.graph.reachable == 0
        and p.requires_grad
        and (p.in_optimizer or not t.optimizers)
    ]


MODULE_LESS = (
    "the model is a function of plain tensors, not an nn.Module: there is no model call to "
    "observe or probe (its parameters are followed through the loss's graph)"
)


def module_less(t: Trace) -> bool:
    """No nn.Module model ran, yet the loss reaches trainable leaves: plain tensors and a
    function (`W = torch.randn(..., requires_grad=True)`, `def predict(x)`)."""
    return not t.forwards and any(p.reached for p in t.parameters)


def cross_broadcast_losses(t: Trace) -> list:
    """Training loss calls whose input and target broadcast to a shape neither has: every
    prediction is compared with every target, whatever the pairing."""
    return [
        c
        for c in t.train_loss_calls()
        if c.broadcast_shape
        and c.broadcast_shape != c.input.shape
        and c.broadcast_shape != c.target.shape
    ]


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
