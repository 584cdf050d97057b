"""Stage 2, pairing read from the run itself: the losses of the first pass over the data,
each on a batch the model had not trained on yet, and the program's own evaluation loss.
Either falling below what the targets' distribution alone allows shows that the inputs
carry information about their targets."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING

from torch_investigate.agent.checks.levels import marginal_level, per_element
from torch_investigate.agent.checks.numbers import fmt

if TYPE_CHECKING:
    from torch_investigate.tools.tracefile.trace import Trace

# The run's own evaluation falling by this much says the pairs carry information.
EVAL_LEARNS = 0.05

# Fresh batches the run must have trained through before their losses can say that the
# model predicts samples it has not seen no better than the targets' distribution.
FRESH_MIN = 50
WINDOW = 10  # fresh losses per median
MEDIAN_SE = 1.2533  # a median's standard error over the mean's, for normal scatter
CHANCE_SE = 3.0  # standard errors below the level that chance does not reach


@dataclass
class Fresh:
    """The training losses of the first pass over the data, each measured on a batch the
    model had not been trained on yet: a held-out reading the run gives for free."""

    steps: int
    best: float  # the lowest median of ten consecutive losses, per element
    level: float  # the targets' marginal level, per element
    learns: bool  # best clearly below the level

    def text(self) -> str:
        verdict = "below" if self.learns else "never clearly below"
        return (
            f"over the first {self.steps} steps, each on a batch the model had not trained on yet, "
            f"the training loss reaches {fmt(self.best)} per element, {verdict} the {fmt(self.level)} "
            "that the targets' distribution alone allows"
        )


def fresh_batches(t: Trace) -> Fresh | None:
    """Within the first epoch every step's loss is measured before the model trains on
    its batch. Falling below the marginal level there shows the inputs carry information
    about their targets; None when the run does not tell (no loader, no known level, a
    curve in other units than the loss call, too few fresh steps)."""
    loader = t.train_loader()
    calls = t.train_loss_calls()
    if loader is None or not loader.dataset_len or not loader.batch_size or not calls:
        return None
    per_epoch = math.ceil(loader.dataset_len / loader.batch_size)
    level, scale = marginal_level(calls), per_element(calls[0])
    raw = t.raw_curve()
    if level is None or level <= 0 or not scale or len({str(c.frame) for c in calls}) != 1:
        return None
    # the curve is in the loss call's units (one call per step, nothing added)
    by_step = {c.step: c.value for c in calls if isinstance(c.value, float)}
    same = [
        abs(raw[k] - v) <= 1e-6 * max(1.0, abs(v))
        for k, v in by_step.items()
        if k < len(raw) and raw[k] is not None
    ]
    if not same or not all(same):
        return None
    fresh = [
        v / scale for v in raw[: min(per_epoch, len(raw))] if v is not None and math.isfinite(v)
    ]
    if len(fresh) < FRESH_MIN:
        return None
    windows = [sorted(fresh[i : i + WINDOW])[WINDOW // 2] for i in range(len(fresh) - WINDOW + 1)]
    best = min(windows)
    # the lowest of many windows is low by chance alone: below the level by more than
    # the batches' own scatter allows a median of ten (its standard error, several times)
    scatter = statistics.pstdev(fresh) * MEDIAN_SE / math.sqrt(WINDOW)
    clearly = best <= min(level * (1 - EVAL_LEARNS), level - CHANCE_SE * scatter)
    return Fresh(len(fresh), best, level, clearly)


@dataclass
class OwnLoss:
    """The program's own evaluation loss at one call site, per pass, against what the
    evaluation targets' distribution alone allows (per element)."""

    site: str
    first: tuple[int, float]  # (steps before the pass, loss per element)
    best: tuple[int, float]  # the lowest pass after the first
    passes: int
    level: float

    @property
    def learns(self) -> bool:
        return self.best[1] <= self.level * (1 - EVAL_LEARNS)

    def text(self) -> str:
        (s0, first), (s1, best) = self.first, self.best
        verdict = "below" if self.learns else "never clearly below"
        return (
            f"the program's own evaluation loss at {self.site} goes from {fmt(first)} (after "
            f"{s0} steps) to at best {fmt(best)} per element (after {s1} steps, {self.passes} "
            f"passes), {verdict} the {fmt(self.level)} that the evaluation targets' "
            "distribution alone allows"
        )


def own_losses(t: Trace) -> list[OwnLoss]:
    """The program's evaluation loss per call site with a known marginal level and at
    least two passes."""
    by_site: dict[str, list] = {}
    for c in t.eval_loss_calls():
        if c.frame is not None:
            by_site.setdefault(f"{c.frame.file}:{c.frame.line}", []).append(c)
    out = []
    for site, calls in by_site.items():
        level, scale = marginal_level(calls), per_element(calls[0])
        passes: dict[int, list[float]] = {}
        for step, where_, value in t.eval_losses:
            if where_ == site and isinstance(value, float):
                passes.setdefault(step, []).append(value)
        if level is None or not scale or len(passes) < 2 or level <= 0:
            continue
        first, *later = [(k, sum(v) / len(v) / scale) for k, v in sorted(passes.items())]
        out.append(OwnLoss(site, first, min(later, key=lambda p: p[1]), len(passes), level))
    return out


def evaluation_learns(t: Trace) -> str | None:
    """The run's own evaluation loss falls below what the targets' distribution alone
    allows: the inputs tell the model something about their targets. A fall that stops
    short of it (the class frequencies, the mean, learned from misaligned pairs as well
    as from true ones) says nothing about the pairs."""
    for own in own_losses(t):
        if own.learns:
            return f"{own.text()}: the inputs carry information about their targets"
    return None


# Passes after training began that the program's own evaluation loss must stay at the
# targets' level through before it reads as a model that predicts nothing unseen.
STAYS_PASSES = 3


def evaluation_stays(t: Trace) -> str | None:
    """The run's own evaluation loss never gets clearly below what the evaluation
    targets' distribution alone allows, over several passes of a training that ran to
    its end: the model predicts no unseen sample better than a constant. None when any
    site learns or none can be read."""
    owns = own_losses(t)
    if not owns or any(o.learns for o in owns):
        return None
    own = max(owns, key=lambda o: o.passes)
    trained = [s for s, _ in t.eval_curve() if s > 0]
    return own.text() if len(set(trained)) >= STAYS_PASSES else None


# The program's own accuracy tells learning from chance only when chance is far from
# perfect: three standard errors of it must be under this share of the room above it.
RESOLVES = 0.25


@dataclass
class OwnAccuracy:
    """The program's own evaluation accuracy (its `==` between predictions and labels)
    against what always predicting the most frequent label of the evaluation scores."""

    passes: int
    best: float
    majority: float
    se: float  # of one pass's accuracy at the majority share
    learns: bool  # clearly above the majority share
    stays: bool  # never beyond chance's reach of it

    def text(self) -> str:
        verdict = (
            "clearly above"
            if self.learns
            else "never beyond chance's reach of"
            if self.stays
            else "not clearly above"
        )
        return (
            f"the program's own evaluation accuracy, best of {self.passes} passes, is "
            f"{fmt(100 * self.best)}%, {verdict} the {fmt(100 * self.majority)}% that always "
            "predicting the most frequent label scores"
        )


def own_accuracy(t: Trace) -> OwnAccuracy | None:
    """The program's evaluation accuracy per pass after training began, when its labels
    were counted and the evaluation is large enough to tell learning from chance."""
    v = t.eval_values
    counts = [c for _, c in v.first_labels] if v is not None else []
    passes = [(s, a) for s, a in t.eval_accuracy_curve() if s > 0]
    if not counts or not passes:
        return None
    per_pass: dict[int, int] = {}
    for step, _matched, compared in t.eval_matches:
        per_pass[step] = per_pass.get(step, 0) + compared
    n = min(per_pass[s] for s, _ in passes)
    majority = max(counts) / sum(counts)
    se = math.sqrt(majority * (1 - majority) / n) if n else 1.0
    if majority >= 1 or CHANCE_SE * se > RESOLVES * (1 - majority):
        return None
    best = max(a for _, a in passes)
    learns = best >= majority + max(EVAL_LEARNS * (1 - majority), CHANCE_SE * se)
    return OwnAccuracy(len(passes), best, majority, se, learns, best <= majority + CHANCE_SE * se)


@dataclass
class OwnError:
    """The program's own evaluation error (its `prediction - target` in evaluation)
    against what predicting each evaluation call's target median would miss by."""

    passes: int
    best: float  # the lowest error of a pass, relative to that pass's constant
    learns: bool

    def text(self) -> str:
        verdict = "below" if self.learns else "never clearly below"
        return (
            f"the program's own evaluation error (its prediction minus the target), best of "
            f"{self.passes} passes, is {fmt(100 * self.best)}% of what predicting the targets' "
            f"median would miss by, {verdict} it"
        )


def own_error(t: Trace) -> OwnError | None:
    """The program's evaluation error per pass after training began, against the best
    constant of the same calls."""
    errors = dict(t.eval_error_curve())
    levels = dict(t.eval_error_level_curve())
    ratios = [errors[s] / levels[s] for s in errors if s > 0 and levels.get(s)]
    if not ratios:
        return None
    best = min(ratios)
    return OwnError(len(ratios), best, best <= 1 - EVAL_LEARNS)
