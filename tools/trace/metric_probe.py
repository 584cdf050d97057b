"""A perfect prediction through the program's own metric. An evaluation helper called
with the model's output and a target (`dice_per_image(logits, mask)`) is called once more
with the output replaced by a perfect prediction built from the target (the target
itself, or logits of +-20 on a 0/1 target, or a one-hot of class indices, [N] or [N, 1]:
a metric that compares [N] with [N, 1] scores every pair, not every row) and once with a
perfectly wrong one. A metric written in numpy is probed with answers in numpy. A helper
that returns several values at once (`top1, top5 = topk_accuracy(...)`, a dict of scores)
is read value by value, each under the call's key with `#n` (its position) appended. A
metric in [0, 1] must give the perfect prediction one of its ends:
a Dice whose empty masks score 0 gives it less (tools' host check: agent/checks/
metric_perfect.py). The program's own result is returned unchanged."""

from __future__ import annotations

import math

import torch

from .recorder import Recorder

NAME = "__torch_investigate_metric__"
MAX_CALLS = 6  # calls probed per site
MAX_VALUES = 500  # values kept per site
MAX_PARTS = 8  # values read from one helper's tuple, list or dict
BIG = 20.0  # a logit this large is a certain answer


def probed(rec: Recorder, fn, key: str):
    i, j = (int(p) for p in key.rsplit(":", 2)[1:])

    def call(*args, **kwargs):
        out = fn(*args, **kwargs)
        for k, value in _keyed(key, _scalars(out)):
            values = rec.metric_values.setdefault(k, [])
            if value is not None and len(values) < MAX_VALUES:
                values.append([rec.n_steps, value])  # the program's own metric, by steps taken
        if _probed_calls(rec, key) < MAX_CALLS and len(args) > max(i, j):
            try:
                with rec.quiet(), torch.no_grad():
                    _probe(rec, key, fn, list(args), kwargs, i, j, out)
            except Exception:  # noqa: BLE001 - a probe that cannot run is no reading
                pass
        return out

    return call


def _probe(rec: Recorder, key: str, fn, args: list, kwargs: dict, i: int, j: int, out) -> None:
    (pred, back), (target, _) = _tensor(args[i]), _tensor(args[j])
    if pred is None or target is None:
        return
    made = _answers(pred, target)
    if made is None:
        return
    results = [_scalars(out)]
    for answer in made:
        args[i] = back(answer)
        results.append(_scalars(fn(*args, **kwargs)))
    if len({len(r) for r in results}) != 1:
        return  # the answers changed how many values the helper returns
    for n, values in enumerate(zip(*results)):
        if all(v is not None for v in values):
            k = key if len(results[0]) == 1 else f"{key}#{n}"
            rec.metric_probes.setdefault(k, []).append(list(values))
            # as called, perfect, perfectly wrong


def _probed_calls(rec: Recorder, key: str) -> int:
    """How many of the site's calls were probed (its values counted together)."""
    return max((len(v) for k, v in rec.metric_probes.items() if k.split("#")[0] == key), default=0)


def _keyed(key: str, values: list) -> list:
    """Each value under the call's key; several values under `key#n`."""
    if len(values) == 1:
        return [(key, values[0])]
    return [(f"{key}#{n}", v) for n, v in enumerate(values)]


def _scalars(out) -> list:
    """The helper's values: one scalar, or each of a short tuple, list or dict of them
    (None where a value is no number)."""
    if isinstance(out, dict):
        out = list(out.values())
    if isinstance(out, (tuple, list)) and 1 <= len(out) <= MAX_PARTS:
        return [_scalar(v) for v in out]
    return [_scalar(out)]


def _tensor(x) -> tuple:
    """(a tensor of x's values, a function giving an answer back in x's own form): a
    tensor as it is, a numpy array (a metric written in numpy) through a copy."""
    if isinstance(x, torch.Tensor):
        return x.detach(), lambda a: a
    if type(x).__module__ == "numpy" and hasattr(x, "dtype") and getattr(x, "ndim", 0) >= 1:
        try:
            t = torch.from_numpy(x.copy())
        except (TypeError, ValueError):  # an object or string array
            return None, None
        return t, lambda a: a.numpy().astype(x.dtype)
    return None, None


def _answers(pred: torch.Tensor, target: torch.Tensor) -> tuple | None:
    """(perfect, perfectly wrong) predictions in the output's form, or None."""
    if not pred.is_floating_point():
        # predicted labels (an argmax) against labels: the labels themselves, and each
        # moved to another class
        if pred.shape != target.shape or pred.dtype.is_complex or target.is_floating_point():
            return None
        if pred.dtype == torch.bool or target.numel() == 0:
            return None
        classes = int(max(int(target.max()), int(pred.max()))) + 1
        if classes < 2 or int(target.min()) < 0:
            return None
        t = target.to(pred.dtype)
        return t, (t + 1) % classes
    probs = bool(pred.min() >= 0) and bool(pred.max() <= 1)
    if pred.shape == target.shape and bool(((target == 0) | (target == 1)).all()):
        t = target.to(pred.dtype)
        if probs:
            return t, 1 - t
        return (2 * t - 1) * BIG, (1 - 2 * t) * BIG
    index = target.dtype in (torch.int64, torch.int32, torch.int16, torch.uint8)
    if index and pred.dim() == target.dim() >= 2 and target.shape[1] == 1:
        target = target.squeeze(1)  # class indices kept with a unit class axis ([N, 1])
    if index and pred.dim() == target.dim() + 1 and pred.shape[0] == target.shape[0]:
        classes = pred.shape[1]
        if pred.shape[2:] != target.shape[1:] or classes < 2 or int(target.max()) >= classes:
            return None
        hot = torch.nn.functional.one_hot(target.long(), classes).movedim(-1, 1).to(pred.dtype)
        wrong = torch.nn.functional.one_hot((target.long() + 1) % classes, classes)
        wrong = wrong.movedim(-1, 1).to(pred.dtype)
        if probs:
            return hot, wrong
        return (2 * hot - 1) * BIG, (2 * wrong - 1) * BIG
    return None


def _scalar(v) -> float | None:
    if isinstance(v, torch.Tensor) and v.is_floating_point() and v.numel() >= 1:
        x = float(v.detach().float().mean())
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        x = float(v)
    elif type(v).__module__ == "numpy" and getattr(v, "dtype", None) is not None:
        if v.dtype.kind != "f" or v.size < 1:  # a numpy float or float array
            return None
        x = float(v.mean())
    else:
        return None
    return x if math.isfinite(x) else None
