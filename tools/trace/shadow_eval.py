"""The program's own training loss on its evaluation batches, computed by the tracer.

A program may score its evaluation in a way the tracer cannot read (an AUC by ranks, a
numpy metric, a printed F1). When a DataLoader feeds its training loss the target at one
position of each batch, an evaluation loader's batch holds its target at the same
position: the loss function the program trains with (its options included) is applied
to the evaluation forward's output and that target, under no_grad, and summed per pass.
The run's own held-out reading then exists for every program with an evaluation loader,
for checks that compare two runs' evaluations (an intervention on evaluation inputs)."""

from __future__ import annotations

import math

import torch

from .recorder import Recorder

MAX_VALUES = 2000


def tag(tensors: list[torch.Tensor]) -> None:
    """A loader batch's tensors remember their position in it."""
    for i, t in enumerate(tensors):
        t._ti_batch_pos = i


def target_seen(rec: Recorder, target: torch.Tensor) -> None:
    """The position of a training loss's target in its loader's batch (the first seen)."""
    pos = getattr(target, "_ti_batch_pos", None)
    loader = rec.loaders.get(rec.current_loader or "", {})
    if rec.target_pos is None and pos is not None and loader.get("role") == "train":
        rec.target_pos = pos


def evaluated(rec: Recorder, outs: list[torch.Tensor]) -> None:
    """A top-level forward without gradient on an evaluation loader's batch: the training
    loss of its output against the batch's target."""
    if rec.loss_fn is None or rec.target_pos is None or not outs or torch.is_grad_enabled():
        return
    loader = rec.loaders.get(rec.current_loader or "", {})
    batch = rec.current_batch
    if loader.get("role") == "train" or batch is None or len(batch) <= rec.target_pos:
        return
    out, target = outs[0], batch[rec.target_pos]
    if not out.is_floating_point() or out.dim() == 0 or out.shape[0] != target.shape[0]:
        return
    func, kwargs, extra = rec.loss_fn
    try:
        with rec.quiet():
            v = float(func(out, target, *extra, **kwargs))
    except Exception:  # noqa: BLE001 - a target this loss cannot read is no reading
        return
    if math.isfinite(v) and len(rec.shadow_eval) < MAX_VALUES:
        rec.shadow_eval.append([rec.n_steps, v * int(out.shape[0]), int(out.shape[0])])
