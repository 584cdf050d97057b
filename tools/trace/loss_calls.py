"""Loss calls seen by the function mode: the operands as the loss receives them (shape,
values, provenance, probability rows), the elements that contribute, per-site counts,
and the link to the backward that decides the call's phase.

A training call first passes through the loss interventions (interventions/loss.py);
the record describes the operands the loss actually received.
"""

from __future__ import annotations

import math

import torch

from . import (
    class_stream,
    difference_mask,
    filled_rows,
    indexed_rows,
    shadow_eval,
    target_order,
    term_marks,
)
from .difference_mask import zero_one_keep
from .hooks.guard import guarded
from .interventions.batch import fixed_target
from .interventions.loss import loss_operands, scored_positions
from .loss_kinds import INDEX_TARGET, NO_BROADCAST
from .ops import tag_of
from .padding import ignored_tail
from .recorder import MAX_EVENTS, Recorder
from .tensors import frame_dict, frame_key, repo_frame, summarize

MAX_EVAL_VALUES = 20_000
# evaluation calls described per site while the run is fast-forwarded: their targets give
# the level an evaluation that learned nothing stays at (pairing_fresh.evaluation_stays)
EVAL_RECORDS_PER_SITE = 16


class _Operands:
    """(input, target) of a loss call, by position or keyword."""

    def __init__(self, args, kwargs) -> None:
        self.args = list(args)
        self.kwargs = dict(kwargs)

    def get(self, i: int, key: str):
        return self.args[i] if len(self.args) > i else self.kwargs.get(key)

    def put(self, i: int, key: str, v) -> None:
        if len(self.args) > i:
            self.args[i] = v
        else:
            self.kwargs[key] = v


@guarded
def _compare_target(rec: Recorder, target: torch.Tensor, frame, ignore: int | None) -> None:
    """The target against the loader's batch and the model's inputs (a failure here is
    the tracer's, counted, never the program's)."""
    target_order.at_loss(rec, target, frame)
    target_order.target_against_input(rec, target, frame, ignore)


def _ignored(name: str, ops: _Operands, target: torch.Tensor) -> int | None:
    """The index an index loss leaves out (None for other losses and float targets)."""
    if name not in INDEX_TARGET or target.is_floating_point():
        return None
    ignore = ops.kwargs.get("ignore_index", ops.args[4] if len(ops.args) > 4 else -100)
    return ignore if isinstance(ignore, int) else -100


def _scored_positions(rec: Recorder, tgt: torch.Tensor, ignore: int | None, applied: list):
    """score_positions: the target with the positions it names scored, else as it is."""
    if not rec.iv.score_positions:
        return tgt
    with rec.quiet(), torch.no_grad():
        y = scored_positions(rec, tgt, ignore)
    if y is None:
        return tgt
    applied.append("score_positions")
    y._ti_batch = getattr(tgt, "_ti_batch", False)
    return y


def _unignored(rec: Recorder, name: str, ops: _Operands, inp, tgt, applied: list) -> None:
    """unignore_class: an index loss that ignores a class the model has an output channel
    for scores it (the default ignore_index, -100)."""
    ignore = _ignored(name, ops, tgt)
    if not rec.iv.unignore_class or ignore is None or inp.dim() < 2:
        return
    if 0 <= ignore < int(inp.shape[1]):
        ops.put(4, "ignore_index", -100)
        applied.append("unignore_class")


def loss_call(rec: Recorder, name: str, func, args, kwargs):
    ops = _Operands(args, kwargs)
    inp, tgt = ops.get(0, "input"), ops.get(1, "target")
    if not isinstance(inp, torch.Tensor) or not isinstance(tgt, torch.Tensor):
        return func(*ops.args, **ops.kwargs)  # the program's own call
    grad = torch.is_grad_enabled()
    frame = repo_frame()
    key = frame_key(frame)
    applied: list[str] = []
    if getattr(inp, "_ti_rows", None) is not None and rec.status == "running":
        indexed_rows.at_loss(rec, inp, grad and inp.requires_grad, key)
    if grad and rec.pending_nograd and (inp.requires_grad or tgt.requires_grad):
        # a loss that can train something (an evaluation's loss on no-grad logits cannot)
        _targets_from_nograd(rec, inp, tgt)
    if grad and rec.detailed and rec.status == "running":
        target = inp if tgt.requires_grad and not inp.requires_grad else tgt
        _compare_target(rec, target, frame, _ignored(name, ops, target))
    if grad and rec.status == "running":
        if inp.requires_grad and not tgt.requires_grad:  # a loss that trains something
            class_stream.record(rec, key, tgt)
            if name in INDEX_TARGET and inp.dim() >= 2:
                rec.class_axes.add(int(inp.shape[1]))
                _train_correct(rec, inp, tgt)
        inp, tgt, applied = loss_operands(rec, name, inp, tgt, key)
        tgt = _scored_positions(rec, tgt, _ignored(name, ops, tgt), applied)
        _unignored(rec, name, ops, inp, tgt, applied)
        _keep_for_probes(rec, func, ops, tgt)
        shadow_eval.target_seen(rec, tgt)
        ops.put(0, "input", inp)
        ops.put(1, "target", tgt)

    if key not in rec.loss_sites and not rec.detailed and grad:
        rec.open_detail_window(f"a new loss at {key}")
    detailed = rec.detailed or (
        not grad
        and len(rec.loss_calls) < MAX_EVENTS
        and (not rec.fast_forward or _eval_records(rec, frame) < EVAL_RECORDS_PER_SITE)
    )
    record = None
    with rec.quiet():
        if detailed and len(rec.loss_calls) < MAX_EVENTS:
            record = describe_loss(rec, name, inp, tgt, ops, frame, grad)
            record["interventions"] = applied
            rec.loss_calls.append(record)
    out = func(*ops.args, **ops.kwargs)  # the program's own call
    if (
        grad
        and isinstance(out, torch.Tensor)
        and out.requires_grad
        and out.dim() <= 1
        and getattr(out, "_ti_scalar", None) is None
    ):
        out._ti_scalar = key  # a term of the loss is computed here (per sample, unreduced)
    term_marks.nograd_loss(rec, inp, out, frame)
    grown = getattr(inp, "_ti_bcast", None)
    if grown is not None and isinstance(out, torch.Tensor) and inp.shape != tgt.shape:
        # a prediction a broadcast grew upstream, compared with a target of another shape
        # (a mark on matching shapes comes from data made by a broadcast, which is data)
        out._ti_bcast = grown
    if record is not None and isinstance(out, torch.Tensor) and out.numel() > 1:
        # an element-wise loss: a mask multiplied into it later says which targets count
        out._ti_loss = (record, tgt)
    with rec.quiet():
        _count_site(rec, name, frame, grad, out, record)
        if not grad:
            _eval_value(rec, key, out, tgt)
        if record is not None:
            _link_output(rec, record, inp, tgt, out, grad)
        rec.event("loss", frame)
    return out


def _eval_records(rec: Recorder, frame) -> int:
    """How many evaluation calls of this site are described already."""
    where = frame_dict(frame)
    return sum(1 for r in rec.loss_calls if not r["grad_enabled"] and r["frame"] == where)


def _targets_from_nograd(rec: Recorder, inp: torch.Tensor, tgt: torch.Tensor) -> None:
    """A no-grad forward whose output a training loss receives (pseudo-labels from a weak
    view, a teacher's soft targets) is part of training, not an evaluation."""
    fed = {getattr(t, key, None) for t in (inp, tgt) for key in ("_ti_fw", "_ti_from_fw")} - {None}
    if fed:
        rec.resolve_nograd(fed, "train")


MAX_TRAIN_CORRECT = 400


def _train_correct(rec: Recorder, inp: torch.Tensor, tgt: torch.Tensor) -> None:
    """How many rows of a training batch the model classifies right before it trains on
    them (the argmax of [N, C] logits against class indices): the training side of an
    accuracy the evaluation's can be compared with."""
    if len(rec.train_correct) >= MAX_TRAIN_CORRECT or inp.dim() != 2 or tgt.shape != inp.shape[:1]:
        return
    with rec.quiet():
        hit = inp.detach().argmax(1) == tgt
        rec.train_correct.append([rec.n_steps, int(hit.sum()), int(hit.numel())])


def _keep_for_probes(rec: Recorder, func, ops: _Operands, tgt: torch.Tensor) -> None:
    """The first training target and the program's loss function with its options, for
    the user probe and the held-out loss."""
    if rec.first_target is None and rec.cfg.probe_code:
        rec.first_target = tgt.detach().clone()
    if rec.loss_fn is None:
        rec.loss_fn = (
            func,
            {k: v for k, v in ops.kwargs.items() if k not in ("input", "target")},
            ops.args[2:],
        )


def _count_site(rec: Recorder, name: str, frame, grad: bool, out, record: dict | None) -> None:
    key = frame_key(frame)
    site = rec.loss_sites.get(key)
    if site is None:
        site = rec.loss_sites[key] = {
            "fn": name,
            "frame": frame_dict(frame),
            "calls": 0,
            "grad_calls": 0,
            "nograd_calls": 0,
            "nonfinite": 0,
        }
    site["calls"] += 1
    site["grad_calls" if grad else "nograd_calls"] += 1
    if isinstance(out, torch.Tensor) and out.numel() == 1:
        v = float(out.detach())
        if not math.isfinite(v):
            site["nonfinite"] += 1
        if record is not None:
            record["value"] = v if math.isfinite(v) else str(v)


def _eval_value(rec: Recorder, site: str, out, tgt: torch.Tensor) -> None:
    """An evaluation loss value, over the whole run (fast-forwarded part included), with
    the rows of its target: the symptom compares evaluations made at different points of
    training, and the rows tell a per-row average from a per-batch one."""
    if (
        isinstance(out, torch.Tensor)
        and out.numel() == 1
        and len(rec.eval_losses) < MAX_EVAL_VALUES
    ):
        v = float(out.detach())
        rec.eval_losses.append([rec.n_steps, site, v if math.isfinite(v) else str(v)])
        rec.eval_loss_rows.append(int(tgt.shape[0]) if tgt.dim() else 1)


def _link_output(rec: Recorder, record: dict, inp, tgt, out, grad: bool) -> None:
    """The output's grad_fn; a training call's phase is decided by the backward that
    reaches it."""
    record["output_grad_fn"] = (
        type(out.grad_fn).__name__
        if isinstance(out, torch.Tensor) and out.grad_fn is not None
        else None
    )
    # targets are what the batch supplies: a swapped call passes them first
    swapped = tgt.requires_grad and not inp.requires_grad
    target = inp if swapped else tgt
    if not getattr(target, "_ti_made", False) or getattr(target, "_ti_batch", False):
        record["_target"] = (target.detach(), rec.last_input)  # dataset labels only
    if grad and isinstance(out, torch.Tensor) and out.grad_fn is not None:
        rec.pending.append((record, out.grad_fn))
    else:
        rec.resolve_phase(record, "eval" if not grad else "train")


def describe_loss(rec: Recorder, name, inp, tgt, ops: _Operands, frame, grad) -> dict:
    d: dict = {
        "fn": name,
        "frame": frame_dict(frame),
        "phase": None if grad else "eval",
        "grad_enabled": grad,
        "step": rec.n_steps,
    }
    isum = _input_summary(inp)
    d["input"] = isum
    d["input_forward"] = getattr(inp, "_ti_fw", None)  # the forward that produced the input
    tsum = _operand_summary(tgt, values=True, dim=False)
    tsum["from_batch"] = bool(getattr(tgt, "_ti_batch", False))
    y = tgt.detach()
    if y.is_floating_point() and y.dim() >= 2 and y.shape[1] > 1 and y.numel():
        # whether a target row is a distribution an output of probabilities can match
        ok = bool((y >= 0).all())
        tsum["rows_sum_to_one"] = float(((y.sum(1) - 1).abs() < 1e-3).float().mean()) if ok else 0.0
    masked = getattr(tgt, "_ti_masked", None)
    if masked is not None:
        d["mask"] = {
            "kept": masked[0], "total": masked[1], "source_values": masked[2],
            "kept_values": sorted(float(k) for k in tsum.get("values") or {}) or None,
        }  # fmt: skip
    owner = rec.stack[-1] if rec.stack else None
    if owner is not None and owner[1] == "other":
        d["module_frame"] = frame_dict(getattr(owner[0], "_ti_created", None))
    isum["from_batch"] = bool(getattr(inp, "_ti_batch", False))
    d["target"] = tsum
    d["reduction"] = _reduction(ops.kwargs)
    _elements(d, name, inp, tgt, ops)
    return d


def _reduction(kwargs: dict) -> str:
    """The call's reduction, the legacy flags read too (`size_average=False` sums)."""
    if "reduction" in kwargs:
        return str(kwargs["reduction"])
    if kwargs.get("reduce") is False:
        return "none"
    return "sum" if kwargs.get("size_average") is False else "mean"


def _operand_summary(t: torch.Tensor, *, values: bool, dim: bool) -> dict:
    s = summarize(t, values=values)
    tag = tag_of(t)
    if dim:
        s["provenance"] = (
            {"op": tag[0], "frame": frame_dict(tag[1]), "dim": tag[3], "in_forward": tag[4]}
            if tag
            else None
        )
    else:
        s["provenance"] = (
            {"op": tag[0], "frame": frame_dict(tag[1]), "in_forward": tag[4]} if tag else None
        )
    s["requires_grad"] = bool(t.requires_grad)
    s["grad_fn"] = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    s["model_output"] = bool(getattr(t, "_ti_out", False))
    # made from constants by the program (GAN real/fake labels), not read from its data
    s["made_in_code"] = bool(getattr(t, "_ti_made", False)) and not getattr(t, "_ti_batch", False)
    s["from_model"] = any(getattr(t, key, None) is not None for key in ("_ti_fw", "_ti_from_fw"))
    return s


def _input_summary(inp: torch.Tensor) -> dict:
    """The loss input, with how many rows look like probabilities or log-probabilities."""
    isum = _operand_summary(inp, values=False, dim=True)
    x = inp.detach()
    if x.is_floating_point() and x.dim() >= 2 and x.shape[1] > 1 and x.numel():
        cls_dim = 1
        s = x.sum(cls_dim)
        e = x.exp().sum(cls_dim)
        isum["rows_sum_to_one"] = (
            float(((s - 1).abs() < 1e-3).float().mean()) if bool((x >= 0).all()) else 0.0
        )
        isum["rows_exp_sum_to_one"] = (
            float(((e - 1).abs() < 1e-3).float().mean()) if bool((x <= 0).all()) else 0.0
        )
    if x.is_floating_point() and x.numel():
        isum["in_unit_interval"] = bool((x >= 0).all() and (x <= 1).all())
    return isum


def _elements(d: dict, name: str, inp, tgt, ops: _Operands) -> None:
    """Elements the loss averages over, and how many of them contribute (ignore_index,
    a broadcast that multiplies them)."""
    index_target = name in INDEX_TARGET and not tgt.is_floating_point()
    total = tgt.numel() if index_target else max(inp.numel(), tgt.numel())
    contributing = total
    if index_target:
        args = ops.args
        ignore = ops.kwargs.get(
            "ignore_index", args[4] if len(args) > 4 and isinstance(args[4], int) else -100
        )
        d["ignore_index"] = ignore
        d["ignored_tail"] = ignored_tail(tgt, ignore)
        contributing = int((tgt != ignore).sum())
        if contributing:
            kept = tgt[tgt != ignore]
            uniq = torch.unique(kept)
            d["contributing_values"] = uniq[:16].tolist()
    if inp.shape != tgt.shape and name not in NO_BROADCAST:
        try:
            bshape = list(torch.broadcast_shapes(inp.shape, tgt.shape))
            d["broadcast_shape"] = bshape
            total = math.prod(bshape)
            contributing = total
        except RuntimeError:
            d["broadcast_shape"] = None
    d["total_elements"] = total
    d["contributing_elements"] = contributing


def weighted_loss(rec: Recorder, args, out) -> None:
    """An element-wise loss multiplied by a 0/1 mask of its shape (`(nll * mask).sum() /
    mask.sum()`): which target values the mask keeps, and which it drops."""
    loss = next((a for a in args[:2] if getattr(a, "_ti_loss", None) is not None), None)
    weights = next((a for a in args[:2] if isinstance(a, torch.Tensor) and a is not loss), None)
    if loss is None or weights is None or weights.numel() != loss.numel():
        return
    record, target = loss._ti_loss
    split = zero_one_keep(weights, target) if "mask" not in record else None
    if split is None:
        return  # weights, not a mask (or a mask already read)
    keep, y = split
    kept, dropped = _values(y[keep]), _values(y[~keep])
    record["mask"] = {
        "kept": int(keep.sum()), "total": int(keep.numel()),
        "source_values": sorted(set(kept or []) | set(dropped or [])) or None,
        "kept_values": kept,
        **filled_rows.read(rec, keep, y),
    }  # fmt: skip


def _values(t: torch.Tensor) -> list[float] | None:
    if t.numel() == 0:
        return []
    u = torch.unique(t)
    return [float(v) for v in u[:16].tolist()] if u.numel() <= 64 else None


# `pred - target` and its spellings: a loss written by hand starts with one
SUBTRACTIONS = {"sub", "__sub__", "__rsub__", "rsub"}


def squared_difference(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The held-out batch's loss where the program's loss is written by hand: the mean
    squared difference (the pairing test compares two fits by it, not the program's own
    value)."""
    return (pred.float() - target.float()).pow(2).mean()


def difference_target(rec: Recorder, name: str, args: tuple) -> tuple:
    """A loss written by hand (`((model(x) - y) ** 2).mean()`): the subtraction of a
    batch's target from a prediction of the same shape, outside any forward, while no
    loss function has been seen. Its site is recorded, and the target goes through the
    batch interventions as a loss call's does (kept, replayed, held out, shuffled), so
    the pairing test has a loss to measure. Returns the args with the target the program
    runs with."""
    if rec.loss_sites or rec.depth or rec.status != "running" or not torch.is_grad_enabled():
        return args
    if len(args) < 2 or not all(isinstance(a, torch.Tensor) for a in args[:2]):
        return args
    a, b = args[0], args[1]
    pred_first = _prediction(a) and _batch_target(rec, b, a)
    if not (pred_first or (_prediction(b) and _batch_target(rec, a, b))):
        return args
    frame = repo_frame()
    if frame is None:
        return args
    key = frame_key(frame)
    if key not in rec.difference_sites and len(rec.difference_sites) < 8:
        rec.difference_sites[key] = frame_dict(frame)
    if rec.loss_fn is None:
        rec.loss_fn = (squared_difference, {}, ())
    pred, tgt = (a, b) if pred_first else (b, a)
    with rec.quiet():
        tgt = fixed_target(rec, pred, tgt, key)
    if rec.detailed:  # its result is tagged where the detailed steps read masks
        rec.pending_difference = (key, tgt)
        # input columns equal to (or an exact affine function of) the target, as a loss
        # call's target is compared with the model's input
        _columns_against(rec, tgt)
    return (a, tgt, *args[2:]) if pred_first else (tgt, b, *args[2:])


@guarded
def _columns_against(rec: Recorder, target: torch.Tensor) -> None:
    with rec.quiet(), torch.no_grad():
        rec.batches.target_columns(target.detach(), rec.last_input)


def _prediction(x: torch.Tensor) -> bool:
    return x.requires_grad and bool(getattr(x, "_ti_out", False) or getattr(x, "_ti_pred", False))


def _batch_shape(rec: Recorder, x: torch.Tensor, pred: torch.Tensor) -> bool:
    """The prediction's shape; under a replayed forward (fixed_batch) the prediction has
    the pool batch's rows, the program's target its own batch's (a short last batch)."""
    if x.shape == pred.shape:
        return True
    replayed = rec.iv.fixed_batch and rec.iv_state.level == "forward"
    return replayed and x.dim() == pred.dim() and x.shape[1:] == pred.shape[1:]


def _batch_target(rec: Recorder, x: torch.Tensor, pred: torch.Tensor) -> bool:
    """A target of a batch: the loader's (or the model's input batch's) values, or rows
    cut by hand with the index of the rows the model received, with no gradient, the
    prediction's shape, not itself the model's input (an autoencoder's), not made by a
    forward (a bootstrapped target) or from constants."""
    return (
        not x.requires_grad
        and x.is_floating_point()
        and x.dim() >= 1
        and _batch_shape(rec, x, pred)
        and x.shape[0] > 1
        and (bool(getattr(x, "_ti_batch", False)) or difference_mask.of_batch(rec, x))
        and not getattr(x, "_ti_fed", False)
        and not getattr(x, "_ti_from_fw", None)
        and not getattr(x, "_ti_made", False)
        and not getattr(x, "_ti_fw", None)
    )
