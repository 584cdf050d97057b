"""Stage 2: inputs standardized per group in one phase and not in the other. Statistics
taken over each utterance, recording or batch of its own (CMVN per utterance, a collate
that standardizes its batch) make every batch's mean sit far closer to zero than
independent rows allow; when training batches do and evaluation batches do not (their means
scatter as much as independent rows make them, or more), the model learned on inputs whose
group offsets were removed and is scored on inputs that keep them. The pooled moments
cannot show it: both phases have the same overall mean and spread."""

from __future__ import annotations

import math
import statistics
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.input_moments import eval_frame
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

MIN_BATCHES = 8
# Batch means this many times tighter than independent rows scatter them are standardized
# within their group; scatter at least as wide as independent rows give is not.
TIGHT = 0.2
# A batch holding this share of the data has the data's mean whatever was done to it.
MAX_SHARE = 0.25


def _scatter(summaries: list) -> tuple[float, float, int] | None:
    """(spread of the batch means, the spread independent rows would give them, batches)
    for the first input tensor of float batches."""
    rows = []
    for s in summaries:
        x = s["tensors"][0] if s.get("tensors") else None
        if x is None or not x.dtype.startswith("float") or len(x.shape) < 2:
            continue
        n = math.prod(x.shape)
        if x.mean is None or x.std is None or n < 2:
            continue
        rows.append((x.mean, x.std / math.sqrt(n)))
    if len(rows) < MIN_BATCHES:
        return None
    noise = statistics.mean(r[1] for r in rows)
    return statistics.pstdev(r[0] for r in rows), noise, len(rows)


def per_group(session: Session, ev: Evidence, t: Trace) -> bool:
    loader = t.train_loader()
    if loader is None or not loader.dataset_len or not loader.batch_size:
        return False
    if loader.batch_size > MAX_SHARE * loader.dataset_len:
        return False
    train, evaluation = _scatter(t.batches.train), _scatter(t.batches.eval)
    if train is None or evaluation is None or not train[1] or not evaluation[1]:
        return False
    r_train, r_eval = train[0] / train[1], evaluation[0] / evaluation[1]
    if not (r_train < TIGHT and r_eval >= 1.0):
        return False
    text = (
        f"the means of {train[2]} training batches scatter by {fmt(train[0])}, "
        f"{fmt(1 / max(r_train, 1e-12))} times less than independent rows would make them "
        f"({fmt(train[1])}), while the means of {evaluation[2]} evaluation batches scatter by "
        f"{fmt(evaluation[0])}, {fmt(r_eval)} times what independent rows give: each training "
        "group (utterance, recording, batch) is standardized with its own statistics, the "
        "evaluation inputs are not"
    )
    confirmed = ev.facts.symptom == "bad_evaluation"
    if confirmed:
        text += "; and the evaluation does not follow training (stage 1)"
    ev.find(
        "preprocessing_mismatch",
        title="inputs standardized per group in training but not in evaluation",
        status="confirmed" if confirmed else "plausible",
        confidence="medium",
        evidence=[runtime(text, None, session, train_ratio=r_train, eval_ratio=r_eval)],
        where=places.input_origin(session, eval_frame(t), transformed=True)
        or first_static_location(session, "preprocessing_mismatch")
        or where(session, eval_frame(t)),
        why="the model learned on inputs whose group offsets were removed and is evaluated on "
        "inputs that keep them: evaluation numbers are wrong even when training works",
        confirm="print the mean of a few training batches and of a few evaluation batches: "
        "normalize the evaluation groups the way the training groups are",
    )
    if confirmed:
        ev.item("train_eval_inputs", "failed", text)
    else:
        ev.item("train_eval_inputs", "not_applicable", text, untested=True)
    return True
