"""Bounds on the gradient's path: `clamp`/`clip` calls that take a tensor the loss's
gradient flows through (a log-rate clamped to a range inside a forward). Each is counted
(`clamp_on_path`), and under the `no_clamp` intervention it passes its input through
unchanged: a loss held only by such a bound then falls as far as its objective allows."""

from __future__ import annotations

import torch

from . import ops
from .recorder import Recorder

CLAMPS = {"clamp", "clamp_", "clip", "clip_", "clamp_min", "clamp_max", "clamp_min_", "clamp_max_"}


def lifted(rec: Recorder, args: tuple) -> bool:
    """Count a clamp on the gradient's path; True when `no_clamp` lifts it."""
    x = args[0] if args else None
    if not torch.is_grad_enabled() or not ops.on_gradient_path(x):
        return False
    rec.counts["clamp_on_path"] += 1
    return rec.iv.no_clamp
