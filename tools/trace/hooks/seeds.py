"""The global seed calls (`torch.manual_seed`, `random.seed`, `numpy.random.seed`,
`torch.cuda.manual_seed[_all]`) routed through the `reseed` seam, installed only when that
intervention is set: a run as written calls the originals untouched."""

from __future__ import annotations

import functools
import random

import torch

from ..interventions import seeds
from ..recorder import Recorder
from .guard import Undo


def _wrap(rec: Recorder, owner: object, name: str, undo: Undo) -> None:
    orig = getattr(owner, name, None)
    if orig is None:
        return

    @functools.wraps(orig)
    def seeded(*a, **k):
        if a:
            return orig(seeds.shifted(rec, a[0]), *a[1:], **k)  # the program's own call
        for key in ("seed", "a"):  # random.seed(a=...), np.random.seed(seed=...)
            if k.get(key) is not None:
                k[key] = seeds.shifted(rec, k[key])
        return orig(*a, **k)  # the program's own call

    setattr(owner, name, seeded)
    undo.append(lambda: setattr(owner, name, orig))


def install(rec: Recorder, undo: Undo) -> None:
    if not rec.cfg.interventions.reseed:
        return
    _wrap(rec, torch, "manual_seed", undo)
    _wrap(rec, torch.random, "manual_seed", undo)
    _wrap(rec, torch.cuda, "manual_seed", undo)
    _wrap(rec, torch.cuda, "manual_seed_all", undo)
    _wrap(rec, random, "seed", undo)
    try:
        import numpy as np
    except ImportError:
        return
    _wrap(rec, np.random, "seed", undo)
