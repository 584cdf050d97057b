"""Op-level interventions applied by the function mode: at a training loss call (swap
the arguments, strip a probability op, reshape a broadcasting input, fixed or shuffled
targets, masked next-token positions scored) and at a graph cut inside the training
forward (keep the graph)."""

from __future__ import annotations

import torch

from ..future import shift_axis
from ..loss_kinds import REGRESSION
from ..ops import tag_of
from ..recorder import Recorder
from .batch import fixed_target


def loss_operands(rec: Recorder, name: str, inp: torch.Tensor, tgt: torch.Tensor, site: str):
    """The (input, target) a training loss call runs with, and the names of the
    interventions that changed them."""
    iv = rec.iv
    applied: list[str] = []
    if iv.swap_loss_args and name not in REGRESSION and tgt.requires_grad and not inp.requires_grad:
        # only calls the run shows swapped (data first, the model's output second): a
        # correct call of the same loss elsewhere (a warm-up phase) stays as it is
        inp, tgt = tgt, inp
        applied.append("swap_loss_args")
    tag = tag_of(inp)
    if iv.strip_prob and tag is not None and tag[2] is not None:
        stripped = _strip(name, tag, inp)
        if stripped is not None:
            inp = stripped
            applied.append(f"strip_{tag[0]}")
    other = tag_of(tgt) if name in REGRESSION and tgt.requires_grad else None
    if iv.strip_prob and tag is None and other is not None and other[2] is not None:
        # a distance given the prediction second (`mse_loss(x, model(x))`)
        stripped = _strip(name, other, tgt)
        if stripped is not None:
            tgt = stripped
            applied.append(f"strip_{other[0]}")
    if iv.fix_broadcast and inp.shape != tgt.shape and inp.numel() == tgt.numel():
        inp = inp.reshape(tgt.shape)
        applied.append("fix_broadcast")
    tgt = fixed_target(rec, inp, tgt, site)
    return inp, tgt, applied


def scored_positions(rec: Recorder, tgt: torch.Tensor, ignore: int | None):
    """score_positions ("axis:p,q"): the next-token target with those positions scored
    where it ignored them, each given the input's next token (read_positions.py); None
    when the target is not the model's token input moved one position along that axis
    (another loss of the program)."""
    spec, x = rec.iv.score_positions, rec.last_input
    axis, _, listed = spec.partition(":")
    if not spec or ignore is None or not isinstance(x, torch.Tensor) or x.dim() != 2:
        return None
    if x.is_floating_point() or tgt.is_floating_point() or x.numel() != tgt.numel():
        return None
    y = tgt.detach().reshape(x.shape)
    if shift_axis(x, y) != int(axis):
        return None
    y = y.clone()
    n = int(x.shape[int(axis)])
    for p in (int(p) for p in listed.split(",") if p):
        if 0 <= p < n - 1:
            at, nxt = y.select(int(axis), p), x.select(int(axis), p + 1)
            hidden = at == ignore
            at[hidden] = nxt[hidden].to(y.dtype)
    return y.reshape(tgt.shape)


def renormalizing(rec: Recorder, args: tuple) -> tuple:
    """strip_prob at a log_softmax of a softmax's output on the training path: the
    log_softmax gets the logits under the softmax (the args unchanged otherwise)."""
    x = args[0] if args else None
    tag = tag_of(x)
    if (
        not rec.iv.strip_prob
        or tag is None
        or tag[0] != "softmax"
        or tag[2] is None
        or tag[2].shape != x.shape
        or not torch.is_grad_enabled()
    ):
        return args
    rec.counts["strip_renormalized"] += 1
    return (tag[2], *args[1:])


def _strip(name: str, tag, inp: torch.Tensor):
    """The logits under a probability op, in the form the loss expects (None: no match)."""
    kind, _, src, _, _ = tag
    if src is None or src.shape != inp.shape:
        return None
    if kind == "softmax" and name in ("cross_entropy",):
        return src
    if kind == "softmax" and name in REGRESSION:
        return src  # probabilities regressed onto values that are no distribution
    if kind == "softmax" and name == "nll_loss":
        return torch.log_softmax(src, dim=tag[3] if tag[3] is not None else 1)
    if kind == "sigmoid" and name == "binary_cross_entropy_with_logits":
        return src
    if kind in ("relu", "tanh") and name in (
        "cross_entropy",
        "binary_cross_entropy_with_logits",
        *REGRESSION,
    ):
        return src
    return None


def kept_graph(rec: Recorder, kind: str, t: torch.Tensor, kwargs: dict, on_path: bool):
    """keep_graph: a detach/.data/torch.tensor re-wrap on the training path returns a
    tensor still connected to the graph (None: the cut runs as written)."""
    if not (rec.iv.keep_graph and on_path):
        return None
    if kind in ("detach", "data"):
        return t
    if kind == "tensor_rewrap":
        out = t.clone()
        dt = kwargs.get("dtype")
        return out.to(dt) if dt is not None else out
    return None
