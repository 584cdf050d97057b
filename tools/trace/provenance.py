"""Which forward a tensor came from: a model's outputs carry the index of their forward
(`_ti_fw`), tensors computed from them carry it on (`_ti_from_fw`), through ops on
tensors and on lists of them (`torch.stack(outputs)`, `torch.cat`). The program reading a
forward's output, and a no-grad forward's output combined with tensors that carry
gradient, are told from it. Also: a prediction made outside the model is one in every
step (carry_prediction), and the parameters a tensor's graph reaches (leaves_reached),
which a cut of it hides from backward."""

from __future__ import annotations

import torch

from .recorder import Recorder

KEYS = ("_ti_fw", "_ti_from_fw")


def operands(args) -> list[torch.Tensor]:
    """The first two operands, and the tensors of a list or tuple given first."""
    out = [a for a in args[:2] if isinstance(a, torch.Tensor)]
    if args and isinstance(args[0], list | tuple):
        out += [a for a in args[0][:64] if isinstance(a, torch.Tensor)]
    return out


def read(rec: Recorder, args) -> None:
    for a in operands(args):
        fw = getattr(a, "_ti_fw", None)
        if fw is not None:
            rec.fw_read.add(fw)


def derived_from(args) -> int | None:
    """The forward whose output the operands hold or were computed from."""
    for a in operands(args):
        for key in KEYS:
            index = getattr(a, key, None)
            if index is not None:
                return index
    return None


def carry(args, out) -> None:
    src = derived_from(args)
    if src is None:
        return
    for t in (out,) if isinstance(out, torch.Tensor) else out if isinstance(out, tuple) else ():
        if isinstance(t, torch.Tensor):
            t._ti_from_fw = src


def feeds_training(rec: Recorder, args, out) -> None:
    """A no-grad forward whose output an op combines with tensors that carry gradient
    (a target network's projection regressed by the online one, a teacher's soft targets,
    pseudo-labels, in a hand-written loss as in a library one) is part of training, not an
    evaluation: resolved here, before the backward would call it an evaluation."""
    if not (isinstance(out, torch.Tensor) and out.requires_grad and torch.is_grad_enabled()):
        return
    fed = set()
    for a in args:
        if isinstance(a, torch.Tensor) and not a.requires_grad:
            for key in KEYS:
                index = getattr(a, key, None)
                if index is not None:
                    fed.add(index)
    if fed:
        rec.resolve_nograd(fed, "train")


# ops whose second operand gives only a shape or a dtype: `target.view_as(pred)` holds
# the target's values, not the prediction's
SHAPE_ONLY = {"view_as", "reshape_as", "expand_as", "type_as"}


def value_operands(name: str, args) -> list:
    """The operands whose values the output of op `name` is computed from."""
    if name in ("cat", "stack", "concat") and args and isinstance(args[0], (list, tuple)):
        return list(args[0])
    return list(args[:1] if name in SHAPE_ONLY else args[:2])


def carry_prediction(name: str, args, out) -> None:
    """Outside the detailed steps too, what is computed from a model's output is a
    prediction (`model(x).squeeze(-1)`): a hand-written difference with a target is
    recognised by it (loss_calls.difference_target)."""
    if isinstance(out, torch.Tensor) and any(
        isinstance(a, torch.Tensor)
        and (getattr(a, "_ti_out", False) or getattr(a, "_ti_pred", False))
        for a in value_operands(name, args)
    ):
        out._ti_pred = True


MAX_GRAPH_NODES = 20_000  # autograd nodes walked back from a cut tensor


def leaves_reached(t: torch.Tensor) -> list[int]:
    """The ids of the leaf tensors (parameters) a tensor's graph reaches: what a cut of
    it hides from backward."""
    fn = getattr(t, "grad_fn", None)
    if fn is None:
        return [id(t)] if getattr(t, "requires_grad", False) else []
    seen, todo, leaves = {fn}, [fn], []
    while todo and len(seen) < MAX_GRAPH_NODES:
        node = todo.pop()
        var = getattr(node, "variable", None)
        if var is not None:
            leaves.append(id(var))
        for nxt, _ in getattr(node, "next_functions", ()):
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return leaves
