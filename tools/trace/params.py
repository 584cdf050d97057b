"""Per-parameter running statistics, keyed by object id while the program runs.

A `ParamRec` is created the first time a parameter is seen (module call, optimizer
construction, Parameter creation in a forward) and named only at `finish`.
"""

from __future__ import annotations

import math

import torch

from .tensors import norm


def uninitialized(p: torch.Tensor) -> bool:
    """A lazy layer's parameter before the forward that gives it a shape."""
    return isinstance(p, torch.nn.parameter.UninitializedTensorMixin)


class ParamRec:
    __slots__ = (
        "ref",
        "shape",
        "numel",
        "first_requires_grad",
        "is_leaf",
        "executed",
        "module_class",
        "module_created",
        "unregistered_module",
        "n_obs",
        "n_none",
        "n_zero",
        "n_nonfinite",
        "sum_norm",
        "max_norm",
        "n_delta",
        "n_delta_zero",
        "sum_delta",
        "sum_ratio",
        "w_start",
        "n_walks",
        "n_reachable",
        "grad_before",
        "created_in_forward",
        "local_name",
        "frozen_steps",
        "reached",
        "consumer",
        "stale_steps",
        "ran_without_grad",
        "stale_frame",
        "n_ratio",
        "lazy",
    )

    def __init__(self, p: torch.Tensor) -> None:
        self.ref = p
        # a lazy layer's parameter (nn.LazyLinear) has no shape or values until its first
        # forward: recorded empty, and filled by `settle` once it has them
        self.lazy = lazy = uninitialized(p)
        self.shape = [] if lazy else list(p.shape)
        self.numel = 0 if lazy else p.numel()
        self.first_requires_grad = bool(p.requires_grad)
        self.is_leaf = bool(p.is_leaf)
        self.executed = False
        self.module_class = ""
        self.module_created = None
        self.unregistered_module = False
        self.n_obs = self.n_none = self.n_zero = self.n_nonfinite = 0
        self.sum_norm = 0.0
        self.max_norm = 0.0
        self.n_delta = self.n_delta_zero = 0
        self.sum_delta = 0.0
        self.sum_ratio = 0.0
        self.w_start = None if lazy else norm(p)
        self.n_walks = self.n_reachable = 0
        self.grad_before = 0  # backward calls that found a non-zero .grad left over
        self.created_in_forward = False
        self.local_name = ""
        self.frozen_steps = 0  # optimizer steps that held this parameter while requires_grad=False
        self.reached = False  # a leaf the training loss reached (a parameter, module or not)
        # the autograd node that consumed it in the last graph walked: the same node object
        # in a later backward means the forward reuses a copy made once (`w.to(dtype)`
        # before the loop), so the updates to this leaf never reach the forward
        self.consumer: object | None = None
        self.stale_steps = 0
        self.ran_without_grad = False  # its module ran with grad off inside a training forward
        self.stale_frame = None  # where the copy the forward keeps using was made
        self.n_ratio = 0  # steps whose update/weight ratio was measured (weight not zero)

    def settle(self) -> None:
        """A lazy parameter seen before its first forward: its shape and starting norm
        once the forward made them."""
        if self.lazy and not uninitialized(self.ref):
            self.shape, self.numel = list(self.ref.shape), self.ref.numel()
            self.w_start, self.lazy = norm(self.ref), False


def grad_stats(rec: ParamRec) -> None:
    """Update gradient statistics of one parameter after a backward."""
    g = rec.ref.grad
    rec.n_obs += 1
    if g is None:
        rec.n_none += 1
        return
    n = float(g.detach().double().norm())
    if not math.isfinite(n):
        rec.n_nonfinite += 1
        return
    if n == 0.0:
        rec.n_zero += 1
    rec.sum_norm += n
    rec.max_norm = max(rec.max_norm, n)
