"""`clip_grad_norm_` and `clip_grad_value_` (in `torch.nn.utils` and its `clip_grad`
module): the limit, the total norm each call saw, and how often it clipped."""

from __future__ import annotations

import math

import torch

from ..interventions import training
from ..recorder import Recorder
from ..tensors import frame_dict, frame_key, repo_frame
from .guard import Undo, guarded

MAX_TOTALS = 200


def install(rec: Recorder, undo: Undo) -> None:
    from torch.nn.utils import clip_grad

    orig_norm = clip_grad.clip_grad_norm_
    orig_value = clip_grad.clip_grad_value_

    def clip_grad_norm_(
        parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None
    ):
        params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
        if rec.busy or rec.status != "running":
            return orig_norm(
                params, max_norm, norm_type, error_if_nonfinite, foreach
            )  # the program's own call
        limit = training.clip_limit(rec, max_norm)
        total = orig_norm(
            params, limit, norm_type, error_if_nonfinite, foreach
        )  # the program's own call
        _record_clip(rec, "norm", float(max_norm), params, total)
        return total

    def clip_grad_value_(parameters, clip_value, foreach=None):
        params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
        if rec.busy or rec.status != "running":
            return orig_value(params, clip_value, foreach)  # the program's own call
        grads = [p.grad for p in params if p.grad is not None]
        biggest = max((float(g.detach().abs().max()) for g in grads if g.numel()), default=0.0)
        if training.clips(rec):
            orig_value(params, clip_value, foreach)
        _record_clip(rec, "value", float(clip_value), params, torch.tensor(biggest))
        return None

    for mod in (clip_grad, torch.nn.utils):
        for name, fn in (
            ("clip_grad_norm_", clip_grad_norm_),
            ("clip_grad_value_", clip_grad_value_),
        ):
            old = getattr(mod, name)
            setattr(mod, name, fn)
            undo.append(lambda m=mod, n=name, o=old: setattr(m, n, o))


@guarded
def _record_clip(rec: Recorder, kind: str, limit: float, params: list, total) -> None:
    n_params = len(params)
    frame = repo_frame()
    key = f"{kind}@{frame_key(frame)}"
    c = rec.clips.setdefault(
        key,
        {
            "kind": kind,
            "frame": frame_dict(frame),
            "limit": limit,
            "calls": 0,
            "clipped": 0,
            "n_params_min": n_params,
            "totals": [],
            "optimizer": _owner(rec, params),
        },
    )
    c["calls"] += 1
    c["n_params_min"] = min(c["n_params_min"], n_params)
    t = float(total) if isinstance(total, torch.Tensor) else float(total or 0.0)
    if math.isfinite(t) and t > limit:
        c["clipped"] += 1
    if len(c["totals"]) < MAX_TOTALS:
        c["totals"].append(t if math.isfinite(t) else None)
    rec.event("clip", frame)


def _owner(rec: Recorder, params: list) -> int | None:
    """The index of the optimizer that holds the clipped parameters (which of a GAN's
    two optimizers steps with this clip), or None when none does yet."""
    ids = {id(p) for p in params}
    for i, opt in enumerate(rec.optimizers.values()):
        if any(id(p) in ids for g in opt.param_groups for p in g["params"]):
            return i
    return None
