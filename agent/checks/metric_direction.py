"""Which end of a metric the program counts as good, in its own words. A probe that hands
a helper a perfect and a perfectly wrong answer sees both land on opposite ends of
[0, 1], but not which end is the good one: an error rate and a score that reads another
class's column than the one it scores give the same two numbers. The helper's name and
the label the program prints its value under (`val_f1=0.013`) break that tie; they never
decide alone (read by agent/checks/metric_perfect.py)."""

from __future__ import annotations

import re

# whole words (names split at `_`, digits kept: `val_f1` -> val, f1) that name a score,
# the higher the better, or an error, the lower the better
HIGHER = frozenset(
    "acc accuracy f1 fscore f1score fbeta dice iou miou jaccard auc auroc roc auprc ap "
    "precision recall sensitivity specificity tpr tnr ppv npv kappa mcc r2 bleu rouge "
    "hits top1 top5 ndcg mrr correct".split()
)
LOWER = frozenset(
    "err error errors loss mae mse rmse nll wer cer fpr fnr eer miss misses dist distance "
    "brier ece risk cost regret deviance perplexity ppl bpc bpd hamming".split()
)
# a label, then `=`, `:` or spaces, then a number with a fraction (`val_f1=0.013`)
LABELLED = re.compile(r"([A-Za-z][\w./-]*)\s*[=:]?\s*([-+]?\d*\.(\d+))(?:[eE]([-+]?\d+))?(?![\w.])")
CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def words(name: str) -> set[str]:
    """The lower-case words of an identifier or label (`valF1`, `val_f1`, `val/f1`)."""
    return {w for w in re.split(r"[^a-z0-9]+", CAMEL.sub("_", name).lower()) if w}


def printed_labels(stdout: str, values: list[float]) -> set[str]:
    """The labels the program printed one of `values` under, to its printed digits, as it
    is or in percent (zero and integers left out: they match too much)."""
    seen = set()
    for m in LABELLED.finditer(stdout):
        label, number, frac, exp = m.groups()
        printed = float(number) * (10.0 ** int(exp) if exp else 1.0)
        if printed == 0.0:
            continue
        half = 0.5 * 10.0 ** (-len(frac) + (int(exp) if exp else 0))
        for v in values:
            if v != 0.0 and any(abs(printed - s * v) <= half + 1e-9 for s in (1.0, 100.0)):
                seen.add(label)
                break
    return seen


def sense(names: list[str]) -> int:
    """+1 when the names call the value a score, -1 an error, 0 when they say neither or
    both."""
    said = set().union(*(words(n) for n in names)) if names else set()
    higher, lower = bool(said & HIGHER), bool(said & LOWER)
    return 0 if higher == lower else (1 if higher else -1)
