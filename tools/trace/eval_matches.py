"""The program's own evaluation scores, for a run that records no evaluation loss: an
`==` between a prediction of a forward made in evaluation (no grad, or a model in eval
mode) and integer labels of the same shape (`(logits.argmax(1) == y).sum()`), and a
difference between such a prediction and a float target of its shape (`(pred - y).abs()`,
a hand-written error). Counted per evaluation pass (optimizer steps so far): they show
what a change to the evaluation inputs did to the evaluation's answers."""

from __future__ import annotations

import torch

from . import clamps, eval_order, saturated, wrapped_errors
from .recorder import Recorder
from .tensors import frame_dict, repo_frame

EQUALS = {"eq", "__eq__"}
SUBTRACTIONS = {"sub", "__sub__", "__rsub__", "rsub"}
MAX_MATCHES = 20_000
MAX_LABELS = 64  # distinct label values beyond which no label set is kept
INDEX_OPS = {"max", "min", "median", "mode", "sort", "topk", "kthvalue", "nanmedian"}
_LABELS = (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool)


def after_op(rec: Recorder, name: str, args, out) -> None:
    _cast(name, args, out)
    saturated.after_op(rec, name, args, out)
    eval_order.after_op(rec, name, args)
    wrapped_errors.after_op(rec, name, args, out)
    if name in SUBTRACTIONS:
        _error(rec, args, out)
    _compared(rec, name, args, out)


def beyond_budget(rec: Recorder, name: str, args, out) -> None:
    """An evaluation op once the op budget is spent (fast-forwarding): the indices a
    `max`/`topk` picks from a prediction stay predictions, and `==` of predictions with
    labels is still counted, so the program's last evaluation pass, the one after
    training, is read even when an earlier pass spent the budget."""
    if not rec.evaluating():
        return
    if isinstance(out, tuple):
        index_made(name, args, out)
    elif isinstance(out, torch.Tensor):
        saturated.after_op(rec, name, args, out)
        _compared(rec, name, args, out)


def _compared(rec: Recorder, name: str, args, out) -> None:
    """`pred == labels`, or `pred - labels` of integer classes (an ordinal error, `(pred -
    y).abs().mean()`): its zeros are the predictions that equal their labels."""
    differs = name in SUBTRACTIONS
    if not (name in EQUALS or differs) or len(args) < 2:
        return
    if not rec.last_output_eval or rec.eval_scores_train:
        return
    a, b = args[0], args[1]
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return
    preds = [_is_pred(a), _is_pred(b)]
    if sum(preds) != 1 or a.shape != b.shape or a.numel() < 2:
        return
    if not (_labels(a) and _labels(b)) or len(rec.eval_matches) >= MAX_MATCHES:
        return
    if differs and (a.is_floating_point() or b.is_floating_point() or a.dtype == torch.bool):
        return  # a real-valued error is _error's; only class indices count as matches
    with rec.quiet():
        pred, labels = (a, b) if preds[0] else (b, a)
        matched = int((out == 0).sum()) if differs else int(out.sum())
        rec.eval_matches.append([rec.n_steps, matched, int(out.numel())])
        _values(rec, pred, labels)
        _shifted(rec, pred, labels)
        _rounded(rec, pred, labels)


def _values(rec: Recorder, pred: torch.Tensor, labels: torch.Tensor) -> None:
    """The label values seen in all evaluation comparisons, and per pass the values the
    predictions took: a prediction no label of the whole run takes is no class."""
    known = rec.eval_values["labels"]
    if known is None or pred.numel() > 1_000_000:
        return
    known.update(float(v) for v in torch.unique(labels).tolist())
    _first_pass_labels(rec, labels)
    taken = torch.unique(pred, return_counts=True)
    if len(known) > MAX_LABELS or taken[0].numel() > MAX_LABELS:
        rec.eval_values["labels"] = None  # too many values for classes
        return
    counts = rec.eval_values["passes"].setdefault(rec.n_steps, {})
    for v, c in zip(taken[0].tolist(), taken[1].tolist(), strict=True):
        counts[float(v)] = counts.get(float(v), 0) + int(c)
    classes = getattr(pred, "_ti_classes", None)
    if classes in rec.class_axes and all(0 <= v < classes for v in taken[0].tolist()):
        return  # indices into the class axis the training loss reads
    if rec.eval_outside is None and any(float(v) not in known for v in taken[0].tolist()):
        made = getattr(pred, "_ti_made_at", None)
        rec.eval_outside = {
            "compared": frame_dict(repo_frame()),
            "made": frame_dict(made) if made is not None else None,
        }


def _shifted(rec: Recorder, pred: torch.Tensor, labels: torch.Tensor) -> None:
    """How many predictions would equal their labels one value up and one value down: an
    ordinal level decoded from 0 compared with levels counted from 1 matches shifted."""
    if pred.dtype == torch.bool or labels.dtype == torch.bool:
        return
    if rec.eval_shift_frame is None:
        rec.eval_shift_frame = frame_dict(repo_frame())
    p = pred.detach()
    up, down = int((p + 1 == labels).sum()), int((p - 1 == labels).sum())
    rec.eval_shifted.append([rec.n_steps, up, down, int(labels.numel())])


def _first_pass_labels(rec: Recorder, labels: torch.Tensor) -> None:
    """How often each label value occurs over the first evaluation pass: the share of its
    most frequent value is what always predicting one class scores."""
    v = rec.eval_values
    if v["first_step"] is None:
        v["first_step"] = rec.n_steps
    if v["first_step"] != rec.n_steps:
        return
    first = v["first_labels"]
    taken = torch.unique(labels, return_counts=True)
    for v, c in zip(taken[0].tolist(), taken[1].tolist(), strict=True):
        first[float(v)] = first.get(float(v), 0) + int(c)


def _labels(t: torch.Tensor) -> bool:
    """Integer or boolean labels, or floats that hold whole numbers only (0./1. flags)."""
    if t.dtype in _LABELS:
        return True
    return t.is_floating_point() and t.numel() <= 1_000_000 and bool((t == t.round()).all())


def index_made(name: str, args, out) -> None:
    """The indices an index op returns from a prediction (`scores.median(dim=-1)[1]`)
    remember the line that made them: a comparison of them with labels names it."""
    if name not in INDEX_OPS or not isinstance(out, tuple) or len(out) < 2:
        return
    a0 = args[0] if args else None
    if isinstance(a0, torch.Tensor) and _is_pred(a0) and isinstance(out[1], torch.Tensor):
        out[1]._ti_made_at = repo_frame()
        out[1]._ti_pred = True


# ops that keep a tensor's values (select, reorder, reshape, convert): class indices stay
# class indices through them
KEEP_VALUES = {
    "__getitem__", "view", "reshape", "flatten", "squeeze", "unsqueeze", "contiguous",
    "clone", "to", "cpu", "long", "int", "masked_select", "t", "transpose", "permute",
}  # fmt: skip


SOFTMAXES = {"softmax", "log_softmax"}


def softmax_classes(rec: Recorder, name: str, args, kwargs) -> None:
    """A softmax over the model's output on the gradient's path (a hand-written soft-target
    cross-entropy, `-(q * logits.log_softmax(-1)).sum(-1)`) normalizes over the class axis
    as a loss with integer targets does: its size joins Recorder.class_axes."""
    a0 = args[0] if args else None
    if name not in SOFTMAXES or not isinstance(a0, torch.Tensor) or a0.dim() < 2:
        return
    if not (torch.is_grad_enabled() and a0.requires_grad and _is_pred(a0)):
        return
    dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
    if isinstance(dim, int) and rec.status == "running":
        rec.class_axes.add(int(a0.shape[dim]))


def classes_of(name: str, args, kwargs, out) -> None:
    """`logits.argmax(dim)` of a prediction: its values are indices into an axis of C
    entries, and stay so through ops that keep values (`pred[mask]`). When C is the class
    axis a training loss reads (Recorder.class_axes), a predicted class that no label of
    the evaluation takes is the model's answer, not a metric of something other than
    classes."""
    a0 = args[0] if args else None
    if not isinstance(a0, torch.Tensor) or not isinstance(out, torch.Tensor):
        return
    if name in ("argmax", "argmin") and _is_pred(a0):
        dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
        if isinstance(dim, int) and a0.dim():
            out._ti_classes = int(a0.shape[dim])
    elif name in KEEP_VALUES and getattr(a0, "_ti_classes", None) is not None:
        out._ti_classes = a0._ti_classes


CASTS = {"long", "int", "short", "to", "type", "trunc", "floor", "fix"}


def _cast(name: str, args, out) -> None:
    """A model's real values made integers by a cast that truncates (`score.long()`,
    `.int()`, `floor`): the integers remember the values and where the cast was, through
    a clamp to the label range too."""
    a0 = args[0] if args else None
    if not isinstance(a0, torch.Tensor) or not isinstance(out, torch.Tensor):
        return
    if name in clamps.CLAMPS and getattr(a0, "_ti_cast_from", None) is not None:
        out._ti_cast_from, out._ti_cast_at = a0._ti_cast_from, a0._ti_cast_at
    elif name in CASTS and a0.is_floating_point() and _is_pred(a0) and out.shape == a0.shape:
        if out.dtype in _LABELS[:-1] or (name in ("trunc", "floor", "fix") and a0.numel()):
            out._ti_cast_from, out._ti_cast_at = a0.detach(), repo_frame()


def _rounded(rec: Recorder, pred: torch.Tensor, labels: torch.Tensor) -> None:
    """How many predictions would equal their labels had the real values they were cast
    from been rounded (within the range the predictions and labels take)."""
    source = getattr(pred, "_ti_cast_from", None)
    if source is None or source.shape != pred.shape or len(rec.eval_rounded) >= MAX_MATCHES:
        return
    lo = float(min(pred.min(), labels.min()))
    hi = float(max(pred.max(), labels.max()))
    rounded = source.round().clamp(lo, hi)
    hits = int((rounded == labels.to(rounded.dtype)).sum())
    rec.eval_rounded.append([rec.n_steps, hits, int(labels.numel()), frame_dict(pred._ti_cast_at)])


def _is_pred(t: torch.Tensor) -> bool:
    return bool(getattr(t, "_ti_pred", False) or getattr(t, "_ti_out", False))


def _error(rec: Recorder, args, out) -> None:
    if (
        len(args) < 2
        or not rec.last_output_eval
        or rec.eval_scores_train
        or len(rec.eval_errors) >= MAX_MATCHES
    ):
        return
    a, b = args[0], args[1]
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return
    if sum([_is_pred(a), _is_pred(b)]) != 1 or a.shape != b.shape or a.numel() < 2:
        return
    if not (a.is_floating_point() and b.is_floating_point()) or a.requires_grad or b.requires_grad:
        return
    with rec.quiet():
        rec.eval_errors.append([rec.n_steps, float(out.detach().abs().sum()), int(out.numel())])
        target = (b if _is_pred(a) else a).detach().double()
        # what the best constant (the target's median) misses by, summed the same way
        level = float((target - target.flatten().median()).abs().sum())
        rec.eval_error_levels.append([rec.n_steps, level, int(out.numel())])
        wrapped_errors.mark(out, rec.eval_errors[-1], rec.eval_error_levels[-1])
