"""Where a finished planner walk is weakest: what the review mode hands to a model.

Each weak point says what is doubtful and which findings or items it concerns. First
come curves the task cannot produce, whatever the symptom was labelled: a loss below
zero (the losses it is built from cannot be negative), one far below what the targets'
distribution alone allows, one near zero while the evaluation does not improve, one
that rises. Then contradictions between observations (a model that fits one batch but
not the data; a loss that does not fall with no defect found), a conclusion that rests
on suspicions only, checklist items nobody could settle, a root cause among the
optimization choices, suspicions the run refuted while the symptom stays unexplained,
and a training command that could not be found or run.
"""

from __future__ import annotations

from statistics import median
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from torch_investigate.agent.checks.levels import marginal_level, per_element
from torch_investigate.agent.core.conclude import choose_root_cause
from torch_investigate.agent.core.curves import final_level, finite, first_recorded
from torch_investigate.tools.records import Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

WeakKind = Literal[
    "negative_loss",
    "below_marginal",
    "near_zero_not_learning",
    "rising_loss",
    "no_command",
    "did_not_run",
    "fits_batch_not_data",
    "unexplained_symptom",
    "plausible_only",
    "open_items",
    "optimization_root",
    "refuted_on_path",
]
LEARNING_SYMPTOMS = frozenset(
    {"flat_loss", "slow_progress", "divergence", "oscillation", "bad_evaluation", "overfitting",
     "too_good"}
)  # fmt: skip


class WeakPoint(BaseModel):
    kind: WeakKind
    text: str
    finding_ids: list[str] = Field(default_factory=list)
    items: list[str] = Field(default_factory=list)  # `stage.item`


def weak_points(session: Session) -> list[WeakPoint]:
    p = session.protocol
    out: list[WeakPoint] = []
    if session.command is None:
        out.append(WeakPoint(kind="no_command", text=(
            f"No training command was found ({session.command_note}); nothing ran, so every "
            "runtime item is unchecked. Read the README and the entry points and say which "
            "command trains the model, and what static evidence points to a defect."
        )))  # fmt: skip
        return out
    if not p.training_ran:
        out.append(WeakPoint(kind="did_not_run", text=(
            "The training command did not reach a training step"
            + (f": {session.facts.failure.message}" if session.facts.failure else "")
            + ". Find out why from the code and the run's message."
        )))  # fmt: skip
    confirmed = p.ledger.confirmed()
    out.extend(_curve_points(session))
    correctness = [f for f in confirmed if f.stage < Stage.OPTIMIZATION]
    symptom = session.symptom
    fit = _fixed_batch_fit(session)
    if fit and symptom in LEARNING_SYMPTOMS and not correctness:
        out.append(WeakPoint(kind="fits_batch_not_data", text=(
            f"{fit}, yet the full run shows {symptom.replace('_', ' ')}. A model that can fit "
            "one batch but not the data points at the data (targets paired with the wrong "
            "inputs, a split, a transform), or at a path the fixed-batch test did not use; "
            "capacity and learning rate are not the explanation."
        )))  # fmt: skip
    elif symptom in LEARNING_SYMPTOMS and not correctness:
        out.append(WeakPoint(kind="unexplained_symptom", text=(
            f"The run shows {symptom.replace('_', ' ')} ({session.facts.symptom_evidence}) but no "
            "defect in stages 2-7 is confirmed. Something on the training path explains it."
        )))  # fmt: skip
    plausible = [f for f in p.ledger.all() if f.status == "plausible"]
    if plausible and not confirmed:
        out.append(WeakPoint(
            kind="plausible_only",
            text="The conclusion rests on suspicions only: confirm or refute them with a probe.",
            finding_ids=[f.id for f in plausible[:6]],
        ))  # fmt: skip
    items = _open_items(session)
    if items:
        out.append(WeakPoint(
            kind="open_items",
            text="Runtime checklist items the checks could not settle: " + "; ".join(
                f"{key} ({detail})" for key, detail in items[:6]
            ),
            items=[key for key, _ in items],
        ))  # fmt: skip
    root = choose_root_cause(session)
    if root is not None and root.stage == Stage.OPTIMIZATION:
        out.append(WeakPoint(kind="optimization_root", finding_ids=[root.id], text=(
            f"The strongest finding, {root.id} ({root.category}), is an optimization choice. "
            "Check that stages 2-7 really exclude a correctness defect a learning-rate or "
            "capacity change would only mask."
        )))  # fmt: skip
    refuted = [f for f in p.ledger.all() if f.status == "refuted"]
    if refuted and symptom in LEARNING_SYMPTOMS and not correctness:
        out.append(WeakPoint(kind="refuted_on_path", finding_ids=[f.id for f in refuted[:4]], text=(
            "These suspicions were refuted by the run while the symptom stays unexplained; "
            "check that the refuting observation covered the code the suspicion is about."
        )))  # fmt: skip
    return out


# loss functions whose value cannot be negative (a sum of them cannot be either)
NON_NEGATIVE = frozenset({
    "cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits", "mse_loss",
    "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div", "soft_margin_loss",
    "multilabel_soft_margin_loss", "multi_margin_loss", "multilabel_margin_loss",
    "margin_ranking_loss", "hinge_embedding_loss", "triplet_margin_loss", "ctc_loss",
})  # fmt: skip
ENTROPY_LOSSES = frozenset(
    {"cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits"}
)
BELOW_MARGINAL = 0.1  # settled at under this fraction of the targets' entropy
NEAR_ZERO = 0.05  # settled at under this fraction of the first loss
RISING = 1.1  # settled above this multiple of the first loss


def _curve_points(session: Session) -> list[WeakPoint]:
    """What the baseline's loss curve shows that its task cannot produce, or that a
    healthy label would hide. Facts of the run, not conclusions: each says what to check."""
    run = session.runner.runs.get("baseline") if session.runner else None
    t = run.trace if run is not None else None
    if t is None or not t.ran_training:
        return []
    raw = t.raw_curve()
    vals = finite(raw)
    first, settled = first_recorded(raw), final_level(raw)
    if first is None or settled is None or len(vals) < 8:
        return []
    label = (session.symptom or "not established").replace("_", " ")
    confirmed = [f for f in session.protocol.ledger.confirmed() if f.stage < Stage.OPTIMIZATION]
    held = (
        f" Confirmed so far: {', '.join(f'{f.id} {f.category}' for f in confirmed[:3])}; check "
        "that it accounts for this."
        if confirmed
        else ""
    )
    calls = t.train_loss_calls()
    fns = sorted({c.fn for c in calls})
    out: list[WeakPoint] = []
    lowest = min(vals)
    nonneg = [fn for fn in fns if fn in NON_NEGATIVE]
    running = _runaway_terms(t)
    if lowest < 0 and (settled < 0 or lowest < -0.05 * abs(first)):
        built = (
            f" although the loss functions it is built from ({', '.join(nonneg)}) cannot be "
            "negative: a term added to them is"
            if nonneg
            else ": a loss to minimize has a floor, and a term of this one has none"
        )
        terms = f" ({'; '.join(running)})" if running else ""
        out.append(WeakPoint(kind="negative_loss", text=(
            f"The training loss goes below zero (first {_g(first)}, settled {_g(settled)}, "
            f"lowest {_g(lowest)}){built}{terms}. The run is labelled {label}; a curve like "
            "this is not learning. Find the term and its sign." + held
        )))  # fmt: skip
    elif running:
        rest = (
            f" while the rest of the loss ({', '.join(nonneg)}) cannot go below zero"
            if nonneg
            else ""
        )
        out.append(WeakPoint(kind="negative_loss", text=(
            f"A term added to the training loss runs ever more negative ({'; '.join(running)})"
            f"{rest}: the optimizer lowers the loss through that term, and nothing stops it "
            f"(labelled {label}, loss {_g(first)} -> {_g(settled)} so far). Check the term's "
            "sign against its definition." + held
        )))  # fmt: skip
    # an entropy (class targets): what a model that ignores its inputs reaches
    entropy = calls and calls[0].fn in ENTROPY_LOSSES
    level = marginal_level(calls) if entropy else None
    scale = per_element(calls[0]) if entropy else None
    values = [c.value for c in calls if isinstance(c.value, float)]
    # the curve is in the loss call's units when its first value is the first call's: its
    # settled level then covers the whole run (calls are recorded for the first steps only)
    same_units = bool(values) and abs(values[0] - first) <= 1e-6 * max(1.0, abs(first))
    settled_call = settled if same_units else (final_level(values) if len(values) >= 5 else None)
    if (
        level
        and scale
        and settled_call is not None
        and 0 <= settled_call / scale < BELOW_MARGINAL * level
    ):
        per = settled_call / scale
        out.append(WeakPoint(kind="below_marginal", text=(
            f"The {calls[0].fn} settles at {_g(per)} per element, {_g(100 * per / level)}% of the "
            f"targets' entropy {_g(level)} (what their distribution alone gives): the model predicts its "
            f"targets almost perfectly within {len(vals)} steps (labelled {label}). Either the "
            "task is that easy, or the targets can be read from the inputs (targets equal to "
            "the inputs or not shifted, a leaked feature, overlapping splits): check which."
            + held
        )))  # fmt: skip
    passes = t.eval_curve()
    if (
        0 <= settled < NEAR_ZERO * abs(first)
        and len(passes) >= 2
        and passes[-1][1] >= 0.9 * passes[0][1]
        and session.symptom not in ("bad_evaluation", "overfitting")
    ):
        out.append(WeakPoint(kind="near_zero_not_learning", text=(
            f"The training loss falls near zero ({_g(first)} -> {_g(settled)}) while the "
            f"evaluation loss does not improve ({_g(passes[0][1])} -> {_g(passes[-1][1])}; "
            f"labelled {label}): the training path and the evaluation see different tasks "
            "(labels, targets, "
            "preprocessing or a leak only training has)." + held
        )))  # fmt: skip
    if settled > RISING * first > 0 and session.symptom != "divergence":
        out.append(WeakPoint(kind="rising_loss", text=(
            f"The training loss rises ({_g(first)} -> {_g(settled)}) though the run is "
            f"labelled {label}: an update that moves the weights against the gradient, a "
            "target that changes, or a step too large." + held
        )))  # fmt: skip
    return out


def _runaway_terms(t) -> list[str]:
    """Scalar terms the loss adds up that end below zero with their magnitude multiplied
    (at least 4x from the first quarter of their values to the last), by source line."""
    found = []
    for total in t.loss_terms:
        for term in total.terms:
            vals = [v for _, v in term.values if v is not None]
            if len(vals) < 8:
                continue
            q = max(1, len(vals) // 4)
            start, end = median(vals[:q]), median(vals[-q:])
            if end < 0 and abs(end) >= 4 * max(abs(start), 1e-12):
                found.append(f"the term computed at {term.source}: {_g(start)} -> {_g(end)}")
    return found[:3]


def _g(x: float) -> str:
    return f"{x:.4g}"


def _fixed_batch_fit(session: Session) -> str | None:
    """The fixed-batch evidence that the model can fit, when stage 8 measured it."""
    fits = [(s, f) for s, f in session.facts.fixed_batch_fits.items() if f[0] and f[1] is not None]
    good = [(s, f) for s, f in fits if not f[2] and f[1] < 0.5 * abs(f[0])]
    if not good:
        return None
    scale, (first, last, _) = min(good, key=lambda sf: sf[1][1])
    return f"The model fits a fixed batch (loss {first:.4g} -> {last:.4g} at lr x{scale:g})"


def _open_items(session: Session) -> list[tuple[str, str]]:
    out = []
    for stage, result in session.protocol.stages.items():
        if result.verdict == "not_examined":
            continue
        for item in result.checklist:
            if item.dynamic and (item.outcome in ("skipped", "pending") or item.untested):
                out.append((f"{int(stage)}.{item.id}", _clip(item.detail, 400) or item.outcome))
    return out


def _clip(text: str, n: int) -> str:
    """At most n characters, cut at a word with an ellipsis."""
    return text if len(text) <= n else text[:n].rsplit(" ", 1)[0] + " …"
