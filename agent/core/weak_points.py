"""Where a finished planner walk is weakest: what the review mode hands to a model.

Each weak point says what is doubtful and which findings or items it concerns:
contradictions between observations (a model that fits one batch but not the data; a
loss that does not fall with no defect found), a conclusion that rests on suspicions
only, checklist items nobody could settle, a root cause among the optimization choices,
suspicions the run refuted while the symptom stays unexplained, and a training command
that could not be found or run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from torch_investigate.agent.core.conclude import choose_root_cause
from torch_investigate.tools.records import Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

WeakKind = Literal[
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
