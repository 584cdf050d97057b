"""Gradients computed without `.backward()`: `torch.autograd.grad` and the torch.func
transforms (`grad`, `grad_and_value`, `vjp`). Each call is counted, so a program that
trains functionally (a dict of weights through `functional_call`, a hand-written update)
is not read as one that never computes a gradient.

A `torch.autograd.grad` inside a training iteration without `create_graph=True` returns
gradients cut from the graph: a penalty built from them (an eikonal or gradient-penalty
term) counts in the loss and trains nothing. They are marked as cut values
(`_ti_cutterm`, tools/trace/term_marks.py), and `keep_graph` asks for the graph."""

from __future__ import annotations

import functools

import torch
import torch.func

from ..recorder import Recorder
from ..tensors import repo_frame
from .guard import Undo

CREATE_GRAPH = 2  # position of create_graph after (outputs, inputs): grad_outputs, retain_graph

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

    def cut_or_kept(fn):
        @functools.wraps(fn)
        def call(outputs, inputs, *a, **k):
            create = a[CREATE_GRAPH] if len(a) > CREATE_GRAPH else k.get("create_graph", False)
            cut = (
                not create
                and not inside[0]
                and torch.is_grad_enabled()
                and rec.between_forward_and_backward
                and rec.status == "running"
            )
            if cut and rec.iv.keep_graph:
                if len(a) > CREATE_GRAPH:
                    a = (*a[:CREATE_GRAPH], True, *a[CREATE_GRAPH + 1 :])
                else:
                    k = {**k, "create_graph": True}
            out = fn(outputs, inputs, *a, **k)  # the program's own call
            if cut and not rec.iv.keep_graph:
                frame = repo_frame()
                for g in out if isinstance(out, tuple | list) else (out,):
                    if isinstance(g, torch.Tensor) and frame is not None:
                        g._ti_cutterm = frame
            return out

        return call

    orig_grad = torch.autograd.grad
    torch.autograd.grad = cut_or_kept(counted(orig_grad))
    undo.append(lambda: setattr(torch.autograd, "grad", orig_grad))
    for name in TRANSFORMS:
        orig = getattr(torch.func, name, None)
        if orig is None:
            continue
        setattr(torch.func, name, transform(orig))
        undo.append(lambda name=name, orig=orig: setattr(torch.func, name, orig))
