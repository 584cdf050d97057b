"""A comparison that cannot come out two ways: a sigmoid's or a softmax's output (always
inside (0, 1)) or a tanh's (inside (-1, 1)) compared in evaluation with a threshold at or
beyond that range (`torch.sigmoid(logits) > 0`). Every element compares the same whatever
the model outputs, so predictions made from it do not depend on the model. Every such
comparison with a scalar is counted per line, and those beyond the range that came out
one value apart: a line whose every comparison did is one answer whatever it is given,
while a binning loop (`(p > lo) & (p <= hi)` over edges from 0 to 1) meets the range's
ends only at its first and last edge."""

from __future__ import annotations

import torch

from .ops import tag_of
from .recorder import Recorder
from .tensors import frame_dict, repo_frame

# the open interval each op's output lies in
RANGES = {"sigmoid": (0.0, 1.0), "softmax": (0.0, 1.0), "tanh": (-1.0, 1.0)}
COMPARES = {"gt", "ge", "lt", "le", "__gt__", "__ge__", "__lt__", "__le__"}


def after_op(rec: Recorder, name: str, args, out) -> None:
    if name not in COMPARES or len(args) < 2 or not isinstance(out, torch.Tensor):
        return
    x, threshold = args[0], args[1]
    tag = tag_of(x)
    if tag is None or tag[0] not in RANGES or out.numel() < 2 or not rec.evaluating():
        return
    if not (getattr(x, "_ti_pred", False) or getattr(x, "_ti_out", False)):
        return  # only what the model's output became
    if isinstance(threshold, torch.Tensor) and threshold.numel() == 1:
        with rec.quiet():
            threshold = float(threshold)
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool):
        return
    lo, hi = RANGES[tag[0]]
    beyond = not lo < threshold < hi
    with rec.quiet():
        same = beyond and bool((out == out.flatten()[0]).all())
        site = rec.op_site(
            "saturated_compare",
            repo_frame(),
            op=name,
            source=frame_dict(tag[1]),
            threshold=float(threshold),
        )
        if site:  # of every comparison on the line, those beyond the range, one value
            site["kept"] = (site.get("kept") or 0) + int(same)
            site["total"] = (site.get("total") or 0) + 1
            site["model_output"] = True
