"""Facts read off a module when it is first called: the scale and symmetry of its
initial weights, submodules in the other train/eval mode, and tensors requiring grad
held as plain attributes."""

from __future__ import annotations

import torch
from torch import nn

from ..recorder import Recorder
from ..tensors import frame_dict


def init_stats(module: nn.Module) -> list[dict]:
    """Scale and symmetry of each weight at the first forward (bad initialization)."""
    out = []
    for name, p in list(module.named_parameters())[:200]:
        x = p.detach().float()
        d = {
            "name": name,
            "shape": list(x.shape),
            "std": float(x.std()) if x.numel() > 1 else 0.0,
            "abs_mean": float(x.abs().mean()) if x.numel() else 0.0,
            "requires_grad": bool(p.requires_grad),
        }
        if x.dim() >= 2 and x.shape[0] > 1:
            d["identical_rows"] = _identical_rows(x)
            if d["identical_rows"]:
                # which rows moved by the end (end_stats takes it out again)
                d["start_row"] = x.reshape(x.shape[0], -1)[0].clone()
        out.append(d)
    return out


def end_stats(module: nn.Module, stats: list[dict]) -> None:
    """The same weights at the end of the run, for those that started symmetric: how many
    rows training moved, and into how many distinct values. Rows that each went their own
    way (an embedding table, one row per feature, a zero-initialized layer whose rows see
    different inputs) were never stuck; rows that moved in a few identical groups (every
    hidden unit of a gate, of a layer) are units that never came to differ."""
    params = dict(list(module.named_parameters())[:200])
    for d in stats:
        start = d.pop("start_row", None)
        p = params.get(d["name"])
        if p is None or not (d.get("identical_rows") or d.get("std") == 0.0):
            continue
        x = p.detach().float()
        d["end_std"] = float(x.std()) if x.numel() > 1 else 0.0
        if x.dim() >= 2 and x.shape[0] > 1 and d.get("identical_rows"):
            rows = x.reshape(x.shape[0], -1)
            if start is None or start.shape != rows[0].shape:
                continue
            moved = (rows != start).any(dim=1)
            d["end_rows_moved"] = int(moved.sum())
            d["end_distinct_moved"] = int(torch.unique(rows[moved], dim=0).shape[0])


def _identical_rows(x: torch.Tensor) -> bool:
    rows = x.reshape(x.shape[0], -1)
    return bool((rows - rows[:1]).abs().max() == 0)


MODE_KINDS = ("Dropout", "BatchNorm", "InstanceNorm", "RReLU")


def mode_dependent(rec: Recorder, module: nn.Module) -> bool:
    """Whether any part of the module computes differently in train and eval mode: a
    dropout or batch-statistics layer, or a forward of the program's own that reads
    `self.training`. A model without one gives the same output in either mode."""
    key = id(module)
    known = rec.mode_dependent.get(key)
    if known is not None:
        return known
    found = False
    for sub in module.modules():
        kind = type(sub).__name__
        if any(k in kind for k in MODE_KINDS):
            found = True
            break
        fn = getattr(type(sub).forward, "__code__", None)
        if type(sub).__module__.split(".")[0] != "torch" and fn and "training" in fn.co_names:
            found = True
            break
    rec.mode_dependent[key] = found
    return found


def other_mode_submodules(module: nn.Module) -> list[dict]:
    """Submodules whose train/eval flag differs from the model's, where it matters."""
    out = []
    for path, sub in module.named_modules():
        if sub is module or sub.training == module.training:
            continue
        kind = type(sub).__name__
        matters = (
            "Dropout" in kind
            or "BatchNorm" in kind
            or "Norm" in kind
            or next(sub.parameters(), None) is not None
        )
        if matters:
            out.append({"path": path, "type": kind, "training": bool(sub.training)})
            if len(out) >= 20:
                break
    return out


def scan_tensor_attributes(rec: Recorder, module: nn.Module) -> None:
    """Tensors requiring grad held as plain attributes: invisible to parameters()."""
    for attr, value in vars(module).items():
        if attr.startswith("_"):
            continue
        items = [(attr, value)]
        # a Parameter set as an attribute is registered; one kept in a plain list or dict
        # is not, as a plain tensor is not
        contained = isinstance(value, (list, tuple, dict))
        if isinstance(value, (list, tuple)):
            items = [(f"{attr}[{i}]", v) for i, v in enumerate(value[:16])]
        elif isinstance(value, dict):
            items = [(f"{attr}[{k!r}]", v) for k, v in list(value.items())[:16]]
        for name, v in items:
            if (
                isinstance(v, torch.Tensor)
                and (contained or not isinstance(v, nn.Parameter))
                and v.requires_grad
            ):
                key = f"{type(module).__name__}.{name}"
                where = getattr(module, "_ti_created", None)
                rec.attr_tensors[key] = {
                    "module": type(module).__name__,
                    "attribute": name,
                    "shape": list(v.shape),
                    "is_leaf": bool(v.is_leaf),
                    "grad_fn": type(v.grad_fn).__name__ if v.grad_fn is not None else None,
                    "module_created": frame_dict(where),
                }
                r = rec.param(v)
                r.executed = True
                r.module_class = r.module_class or type(module).__name__
                r.module_created = r.module_created or where
