"""Terms of the training loss that carry no gradient, followed from where they are made to
the backward that adds them:

- a value detached in the training forward or between it and the loss (`_ti_cutterm`, its
  line; marked where the detach or `.data` happens, tools/trace/mode.py);
- a number made a tensor inside the training iteration (`_ti_numterm`: its line and
  value; `torch.tensor(total / n)` of values taken out with .item());
- a loss computed on the output of a model forward that ran with grad off (`_ti_nograd`:
  a critic's values collected in a no-grad rollout and regressed on their returns). The
  forward's outputs are marked (`_ti_ngm`: the line that called the model) and the mark
  follows every op that makes a tensor still without gradient; a standard loss whose
  prediction holds it and whose value carries no gradient is such a term.

A term mark is carried by every op whose result still carries no gradient (a norm, a
square of the cut value), and into a result that does only through sums, differences,
reductions, reshapes and products with numbers that carry no gradient; any other op (a
product with a prediction, a log of it, a matmul) uses the value as data, as a
stop-gradient target does, and drops it."""

from __future__ import annotations

import torch

from .ops import PASSTHROUGH, TERM_SUMS, WEIGHTINGS
from .recorder import Recorder
from .tensors import frame_dict, repo_frame

KEEPS_TERM = PASSTHROUGH | TERM_SUMS | {"neg", "__neg__", "sum", "mean"}
TERMS = ("_ti_cutterm", "_ti_nograd", "_ti_numterm")
NUMBER_TENSORS = {"tensor", "as_tensor", "scalar_tensor"}
MAX_NUMBER_VALUES = 50


def after_op(rec: Recorder, name: str, args, out: torch.Tensor) -> None:
    if (
        name in NUMBER_TENSORS
        and args
        and isinstance(args[0], float)
        and torch.is_grad_enabled()
        and rec.between_forward_and_backward
    ):
        # a number made a tensor inside the training iteration (`torch.tensor(total / n)`
        # of values taken out with .item()): a term of the loss it is, it carries no graph
        out._ti_numterm = (repo_frame(), args[0])
        return
    for attr in TERMS:
        _carry(attr, name, args, out)
    if rec.detailed and not out.requires_grad:
        mark = _nograd_output(args)
        if mark is not None:
            out._ti_ngm = mark


def nograd_forward(rec: Recorder, outputs: list[torch.Tensor], frame: dict | None, module) -> None:
    """Outputs of a model forward made with grad off (`frame`: the line that called it),
    in the detailed steps."""
    if rec.detailed and frame is not None and not torch.is_grad_enabled():
        for t in outputs:
            if not t.requires_grad:
                t._ti_ngm = (frame, id(module))


def nograd_loss(rec: Recorder, inp, out, frame) -> None:
    """A standard loss with grad on whose prediction came from a no-grad forward and whose
    value carries no gradient: a term of the loss that trains nothing."""
    mark = getattr(inp, "_ti_ngm", None)
    if (
        mark is not None
        and isinstance(out, torch.Tensor)
        and torch.is_grad_enabled()
        and not out.requires_grad
        and out.dim() <= 1
    ):
        out._ti_nograd = (mark, frame_dict(frame))


def at_backward(rec: Recorder, loss: torch.Tensor) -> None:
    cut = getattr(loss, "_ti_cutterm", None)
    if cut is not None and frame_dict(cut) not in rec.cut_terms and len(rec.cut_terms) < 16:
        rec.cut_terms.append(frame_dict(cut))  # the loss adds a value detached in the forward
    number = getattr(loss, "_ti_numterm", None)
    if number is not None and number[0] is not None:
        values = rec.number_terms.setdefault(frame_dict(number[0])["file"] + f":{number[0][1]}", [])
        if len(values) < MAX_NUMBER_VALUES:
            values.append(number[1])
    term = getattr(loss, "_ti_nograd", None)
    if term is not None and len(rec.nograd_terms) < 16:
        (forward, module), loss_frame = term
        entry = {"forward": forward, "loss": loss_frame, "module": module}
        if entry not in rec.nograd_terms:
            rec.nograd_terms.append(entry)


def _carry(attr: str, name: str, args, out: torch.Tensor) -> None:
    marked = [a for a in args[:2] if getattr(a, attr, None) is not None]
    if not marked:
        return
    if (
        not out.requires_grad
        or name in KEEPS_TERM
        or (
            name in WEIGHTINGS
            and not any(
                isinstance(a, torch.Tensor) and a.requires_grad
                for a in args[:2]
                if a is not marked[0]
            )
        )
    ):
        setattr(out, attr, getattr(marked[0], attr))


def _nograd_output(args):
    for a in args[:3]:
        if isinstance(a, torch.Tensor):
            mark = getattr(a, "_ti_ngm", None)
        elif isinstance(a, list | tuple):
            mark = next((m for x in a[:64] if (m := getattr(x, "_ti_ngm", None)) is not None), None)
        else:
            continue
        if mark is not None:
            return mark
    return None
