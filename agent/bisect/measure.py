"""The measurement behind a bisect verdict: where a run's loss settled, how much it
moves while settled, and whether a commit learns like the good one.

The rule (also in the report, `RULE`): every commit runs the same command with the
same `--steps`, `--timeout` and the tracer's fixed seed. Its settled loss is
`final_level` of its first `steps` training losses (the median of the last tenth, at
least 5 values) or, when it and the good commit both evaluated at the same step, the
mean evaluation loss of the last evaluation. The noise is the good run's own spread:
the standard error of that median (from the median absolute deviation of the
settled window), or of the mean over evaluation batches. A second run of the good
commit would mostly reproduce its numbers (same seed, same data order), so it would
call the noise zero; the within-run spread is what batch-to-batch variation moves
the settled value by. The margin is max(3 x spread, a floor of 5% of the larger of
the good settled loss and the distance the good run fell from its first training
loss); above good + margin, or
non-finite, is "not learning like good".
"""

from __future__ import annotations

import math
from statistics import mean, median, stdev

from torch_investigate.agent.bisect.records import LossLevel, Margin, Probe, ProbeStatus
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.core.curves import final_level
from torch_investigate.tools.tracefile.trace import Trace

SPREAD_FACTOR = 3.0
FLOOR = 0.05
# standard error of a median ~ 1.2533 sigma / sqrt(k); sigma ~ 1.4826 MAD for normal noise
_MEDIAN_SE = 1.2533 * 1.4826

RULE = (
    "settled loss = median of the last tenth (at least 5) of the first --steps training "
    "losses, or the mean evaluation loss at the last evaluation when both runs evaluated "
    "at the same step; margin = max(3 x the good run's within-run spread (standard error "
    "of its settled value), 5% of max(|good settled|, good first loss - good settled)); a commit "
    "learns like good when its settled loss <= good + margin, and is bad above that or "
    "when its loss is not finite; a commit that cannot run is skipped"
)


def _finite(v: object) -> bool:
    return isinstance(v, int | float) and math.isfinite(v)


def train_level(trace: Trace, steps: int) -> LossLevel | None:
    """The settled training loss over the first `steps` optimizer steps."""
    raw = trace.raw_curve()[:steps]
    values = [v for v in raw if _finite(v)]
    if not raw:
        return None
    k = max(5, len(values) // 10)
    window = raw[-k:]
    settled = final_level(values) if values and all(_finite(v) for v in window) else None
    tail = values[-k:]
    mad = median(abs(v - median(tail)) for v in tail) if tail else 0.0
    return LossLevel(
        metric="train_loss",
        settled=settled,
        first=values[0] if values else None,
        spread=_MEDIAN_SE * mad / math.sqrt(len(tail)) if tail else 0.0,
        steps=len(raw),
        nonfinite=len(raw) - len(values),
    )


def eval_level(trace: Trace, first: float | None) -> LossLevel | None:
    """The mean loss over the evaluation batches of the last evaluation the tracer saw;
    `first` is the run's first training loss (the untrained model), so the floor counts
    the whole distance the loss fell, not just the part after the first evaluation."""
    by_step: dict[int, list[object]] = {}
    for call in trace.eval_loss_calls():
        if call.value is not None:
            by_step.setdefault(call.step, []).append(call.value)
    if not by_step:
        return None
    last = max(by_step)
    values = [v for v in by_step[last] if _finite(v)]
    bad = len(by_step[last]) - len(values)
    return LossLevel(
        metric="eval_loss",
        settled=mean(values) if values and not bad else None,
        first=first,
        spread=stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0,
        steps=last,
        nonfinite=bad,
    )


def margin_for(good: LossLevel) -> Margin:
    assert good.settled is not None
    fell = (good.first - good.settled) if good.first is not None else 0.0
    floor = FLOOR * max(abs(good.settled), fell)
    return Margin(
        metric=good.metric,
        good=good.settled,
        spread=good.spread,
        floor=floor,
        margin=max(SPREAD_FACTOR * good.spread, floor, 1e-12),
    )


def levels(good: Probe, probe: Probe) -> tuple[LossLevel, LossLevel] | None:
    """(good, probe) levels of the same metric: evaluation when both evaluated at the
    same step, else training."""
    ge, pe = good.eval, probe.eval
    if ge is not None and pe is not None and ge.steps == pe.steps and ge.settled is not None:
        return ge, pe
    if good.train is None or probe.train is None or good.train.settled is None:
        return None
    return good.train, probe.train


def judge(good: Probe, probe: Probe) -> tuple[ProbeStatus, Margin | None, str]:
    """The verdict on `probe` against the good commit's reference run."""
    pair = levels(good, probe)
    if pair is None:
        return "skipped", None, "no loss comparable with the good commit's was recorded"
    ref, level = pair
    margin = margin_for(ref)
    name = (
        f"evaluation loss at step {level.steps}"
        if ref.metric == "eval_loss"
        else f"training loss settled over {level.steps} steps"
    )
    if level.settled is None:
        return "bad", margin, f"{name}: not finite ({level.nonfinite} non-finite values)"
    limit = margin.good + margin.margin
    text = f"{name}: {fmt(level.settled)} vs good {fmt(margin.good)} (limit {fmt(limit)})"
    if level.settled > limit:
        return "bad", margin, text + ": not learning like good"
    return "good", margin, text + ": learns like good"
