"""Gradients computed without `.backward()`: `torch.autograd.grad` and the torch.func
transforms (`grad`, `grad_and_value`, `vjp`). Each call is counted, so a program that
trains functionally (a dict of weights through `functional_call`, a hand-written update)
is not read as one that never computes a gradient."""

from __future__ import annotations

import functools

import torch
import torch.func

from ..recorder import Recorder
from .guard import Undo

TRANSFORMS = ("grad", "grad_and_value", "vjp")


def install(rec: Recorder, undo: Undo) -> None:
    inside = [False]  # a transform computes its gradient with autograd.grad: count once

    def counted(fn):
        @functools.wraps(fn)
        def call(*a, **k):
            if inside[0]:
                return fn(*a, **k)
            rec.counts["functional_grad"] += 1
            inside[0] = True
            try:
                return fn(*a, **k)
            finally:
                inside[0] = False

        return call

    def transform(orig):
        @functools.wraps(orig)
        def make(*a, **k):
            return counted(orig(*a, **k))  # the program's own call

        return make

    orig_grad = torch.autograd.grad
    torch.autograd.grad = counted(orig_grad)
    undo.append(lambda: setattr(torch.autograd, "grad", orig_grad))
    for name in TRANSFORMS:
        orig = getattr(torch.func, name, None)
        if orig is None:
            continue
        setattr(torch.func, name, transform(orig))
        undo.append(lambda name=name, orig=orig: setattr(torch.func, name, orig))
