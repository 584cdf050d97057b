"""Evaluation differences the program wraps before it reads them. `pred - theta` of two
angles is no error until `torch.remainder(pred - theta + pi, 2 * pi) - pi` brings it
back into one turn: read raw, a heading predicted as -170 degrees against a target of 190
misses by 360. Each difference eval_matches.py records as the program's own evaluation
error marks its result; the mark follows arithmetic with it (`+ pi`), and a wrap of a
marked tensor (remainder, fmod, `%`, or sin/cos/atan2 of it) takes that record back: what
the program scores is the wrapped figure, which the tracer does not read."""

from __future__ import annotations

import torch

from .recorder import Recorder

CARRY = {
    "add", "__add__", "__radd__", "sub", "__sub__", "__rsub__", "rsub", "mul", "__mul__",
    "__rmul__", "div", "true_divide", "__truediv__",
}  # fmt: skip
WRAPS = {"remainder", "fmod", "__mod__", "__rmod__", "sin", "cos", "atan2", "arctan2"}


def mark(out: torch.Tensor, error: list, level: list) -> None:
    """`out` is the difference just recorded as `error` (with the best constant's `level`)."""
    out._ti_err = (error, level)


def after_op(rec: Recorder, name: str, args, out) -> None:
    if name not in CARRY and name not in WRAPS:
        return
    marked = next(
        (m for a in args[:2] if (m := getattr(a, "_ti_err", None)) is not None),
        None,
    )
    if marked is None:
        return
    if name in CARRY and isinstance(out, torch.Tensor):
        out._ti_err = marked
        return
    for records, entry in zip((rec.eval_errors, rec.eval_error_levels), marked, strict=True):
        at = next((i for i, e in enumerate(records) if e is entry), None)
        if at is not None:
            del records[at]
