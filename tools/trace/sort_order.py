"""A ranking metric that orders the model's scores one way and the true relevance the
other: in one evaluation function, `argsort(scores)` (ascending, the default) beside
`sort(relevance, descending=True)` ranks the predictions worst first against an ideal
best first (NDCG, MAP and MRR then measure the wrong end of the list)."""

from __future__ import annotations

import torch

from .recorder import Recorder
from .tensors import frame_dict, repo_frame

SORTS = ("argsort", "sort")


def after_op(rec: Recorder, name: str, args, kwargs) -> None:
    a0 = args[0] if args else None
    if name not in SORTS or torch.is_grad_enabled() or not isinstance(a0, torch.Tensor):
        return
    descending = kwargs.get("descending", args[2] if len(args) > 2 else False)
    if not isinstance(descending, bool):
        return
    role = (
        "prediction" if getattr(a0, "_ti_out", False) or getattr(a0, "_ti_pred", False) else "other"
    )
    frame = repo_frame()
    if frame is None:
        return
    seen = rec.sort_orders.setdefault((frame[0], frame[2]), {})
    seen.setdefault(role, (descending, frame))
    if "prediction" in seen and "other" in seen and seen["prediction"][0] != seen["other"][0]:
        pred, other = seen["prediction"], seen["other"]
        site = rec.op_site("opposite_sorts", pred[1], op="descending" if pred[0] else "ascending",
                           in_forward=False)  # fmt: skip
        if site and "caller" not in site:
            site["caller"] = frame_dict(other[1])
        if site:
            site["phases"]["eval"] = site["phases"].get("eval", 0) + 1
