"""Log-probabilities picked along another axis than they were normalized over:
`log_softmax(scores, dim=1).gather(2, heads)` normalizes over the dependents and picks each
dependent's head along the last axis, so the picked values are no distribution over heads.
Seen on the training path (grad on); `gather_renormalized` recomputes the probabilities
over the picking axis from the tensor the softmax was given (the provenance tag's source)
before the pick."""

from __future__ import annotations

import torch

from .ops import tag_of
from .recorder import Recorder
from .tensors import frame_dict, map_tensors, repo_frame

GATHERS = {"gather", "take_along_dim"}


def checked(rec: Recorder, name: str, args, kwargs):
    """The (args, kwargs) a gather runs with; records a pick across the normalized axis."""
    a0 = args[0] if args else None
    tag = tag_of(a0)
    if tag is None or tag[0] not in ("log_softmax", "softmax") or tag[3] is None:
        return args, kwargs
    if not (torch.is_grad_enabled() and a0.requires_grad and a0.dim() >= 2):
        return args, kwargs
    dim = kwargs.get("dim", args[1] if len(args) > 1 and isinstance(args[1], int) else None)
    if not isinstance(dim, int):
        return args, kwargs
    norm, picked = tag[3] % a0.dim(), dim % a0.dim()
    if norm == picked or a0.shape[norm] < 2 or a0.shape[picked] < 2:
        return args, kwargs
    site = rec.op_site(
        "gather_axis", repo_frame(), op=name, dim=picked, shape=list(a0.shape),
        source=frame_dict(tag[1]),
    )  # fmt: skip
    if site:
        site["phases"]["train"] = site["phases"].get("train", 0) + 1
    src = tag[2]
    if rec.iv.gather_renormalized and isinstance(src, torch.Tensor) and src.shape == a0.shape:
        with rec.quiet():
            fn = torch.log_softmax if tag[0] == "log_softmax" else torch.softmax
            fixed = fn(src, dim=picked)
        args = map_tensors(args, lambda t: fixed if t is a0 else t)
    return args, kwargs
