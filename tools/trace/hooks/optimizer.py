"""`torch.optim.Optimizer`: construction (ownership), zero_grad (also `nn.Module.zero_grad`),
and the step pre/post hooks: learning rates, frozen parameters, parameter deltas, call
order per iteration. The user probe runs after the first step."""

from __future__ import annotations

import functools
import math
import types

import torch
from torch import nn

from ..interventions import batch, reference_model, training
from ..recorder import MAX_CURVE, MAX_EVENTS, Recorder
from ..tensors import frame_dict, repo_caller, repo_frame
from ..user_probe import probe_and_stop
from .built_at import construction_frame
from .guard import Undo, guarded


def lr_of(group: dict) -> float:
    lr = group.get("lr", float("nan"))
    try:
        return float(lr)
    except (TypeError, ValueError):
        return float("nan")


SNAPSHOT_BUDGET = 20_000_000  # elements of weights copied before a detailed step


def install(rec: Recorder, undo: Undo) -> None:
    _install_init(rec, undo)
    _install_zero_grad(rec, undo)
    _install_step_hooks(rec, undo)


def _install_init(rec: Recorder, undo: Undo) -> None:
    Opt = torch.optim.Optimizer
    orig_init = Opt.__init__

    @functools.wraps(orig_init)  # a CLI or config system reads the signature
    def init(self, params, defaults, *a, **k):
        orig_init(self, params, defaults, *a, **k)  # the program's own call
        if rec.busy:
            return
        if rec.optimizers and rec.n_steps:
            rec.open_detail_window("a new optimizer")
        rec.optimizers[id(self)] = self
        rec.optimizer_frames[id(self)] = construction_frame(self)
        for g in self.param_groups:
            for p in g["params"]:
                rec.param(p)
        if rec.iv.reference_lr > 0:
            use_reference(rec, self)

    Opt.__init__ = init
    undo.append(lambda: setattr(Opt, "__init__", orig_init))


def _pending(rec: Recorder, owner) -> int:
    """Backward calls whose gradients `owner` (an optimizer, or a module) has not stepped
    on yet: since that optimizer's own last step (a second optimizer stepping after the
    first has its own), since any step for a module's zero_grad."""
    if isinstance(owner, torch.optim.Optimizer) and id(owner) in rec.own_backwards:
        return rec.own_backwards[id(owner)]
    return rec.backward_since_step


def _zero_grad_site(rec: Recorder, frame, pending: int) -> None:
    """The first zero_grad between a backward and its step (it discards the gradients),
    with the program's line that called the function holding it, and the first one that
    discards nothing: a helper called both ways is not itself misplaced, its caller is."""
    if rec.in_step or frame is None:
        return
    key = "zero_grad_discarding" if pending > 0 else "zero_grad_harmless"
    if key not in rec.event_frames:
        rec.event_frames[key] = frame_dict(frame)
        caller = repo_caller(frame)
        if caller is not None:
            rec.event_frames[key + "_caller"] = frame_dict(caller)


def _install_zero_grad(rec: Recorder, undo: Undo) -> None:
    Opt = torch.optim.Optimizer
    orig_zero = Opt.zero_grad
    orig_mzero = nn.Module.zero_grad

    def make_zero(orig):
        def zero_grad(self, set_to_none: bool = True):
            if not rec.busy and rec.status == "running":
                frame = repo_frame()
                rec.event("zero_grad", frame)
                pending = _pending(rec, self)
                _zero_grad_site(rec, frame, pending)
                if pending and isinstance(self, torch.optim.Optimizer):
                    rec.own_zeroed.add(id(self))  # a step before the next backward discards
                if training.drops_zero_grad(rec, pending):
                    return None
                rec.zero_grad_since_step = True
            return orig(self, set_to_none)  # the program's own call

        return zero_grad

    Opt.zero_grad = make_zero(orig_zero)
    nn.Module.zero_grad = make_zero(orig_mzero)
    undo.append(lambda: setattr(Opt, "zero_grad", orig_zero))
    undo.append(lambda: setattr(nn.Module, "zero_grad", orig_mzero))


def _install_step_hooks(rec: Recorder, undo: Undo) -> None:
    from torch.optim.optimizer import (
        register_optimizer_step_post_hook,
        register_optimizer_step_pre_hook,
    )

    def pre(opt, args, kwargs) -> None:
        if not getattr(opt, "_ti_reference", False):
            on_step_pre(rec, opt, closure=len(args) > 1 or bool(kwargs.get("closure")))

    def post(opt, args, kwargs) -> None:
        if not getattr(opt, "_ti_reference", False):
            on_step_post(rec, opt)

    h1 = register_optimizer_step_pre_hook(pre)
    h2 = register_optimizer_step_post_hook(post)
    undo.append(h1.remove)
    undo.append(h2.remove)


def on_step_pre(rec: Recorder, opt, closure: bool) -> None:
    _step_pre(rec, opt)
    if id(opt) in rec.own_zeroed and not rec.busy:
        # its gradients were zeroed after the last backward: this step discards them
        rec.own_zeroed.discard(id(opt))
        rec.counts["zero_grad_discards"] += 1
    if not rec.busy:
        rec.in_step = True
    # the optimizer's own tensor arithmetic is not the program's: run it outside the
    # function mode (unless a closure re-runs the forward inside step, as LBFGS does)
    if not closure and rec.step_mode_off is None:
        rec.step_mode_off = torch._C.DisableTorchFunction()
        rec.step_mode_off.__enter__()


def on_step_post(rec: Recorder, opt) -> None:
    rec.in_step = False
    if rec.step_mode_off is not None:
        ctx, rec.step_mode_off = rec.step_mode_off, None
        ctx.__exit__(None, None, None)
    _step_post(rec, opt)


def use_reference(rec: Recorder, opt) -> None:
    """reference_lr: the program's optimizer keeps its hooks, schedule and zero_grad, but
    its update is Adam's at a fixed small learning rate: tests that judge the data (label
    pairing, a fixed-batch fit) then do not depend on the program's hyperparameters."""
    params = [p for g in opt.param_groups for p in g["params"]]
    with rec.quiet():
        shadow = torch.optim.Adam(params, lr=rec.iv.reference_lr)
    shadow._ti_reference = True

    def step(self, closure=None):
        on_step_pre(rec, self, closure=closure is not None)
        try:
            return shadow.step(closure)
        finally:
            on_step_post(rec, self)

    # a bound method, as a scheduler's step-tracking wrapper expects to find
    opt.step = types.MethodType(step, opt)


@guarded
def _step_pre(rec: Recorder, opt) -> None:
    if rec.busy:
        return
    rec.optimizers.setdefault(id(opt), opt)
    rec.in_top_models()  # noted at each step: a layer replaced later was registered
    training.add_missing_params(rec, opt)
    training.unfreeze_params(rec, opt)
    training.train_left_out(rec, opt)
    for g in opt.param_groups:
        for p in g["params"]:
            if not p.requires_grad:
                rec.param(p).frozen_steps += 1
    lrs = [lr_of(g) for g in opt.param_groups]
    if id(opt) == next(iter(rec.optimizers)) and len(rec.lrs) < MAX_CURVE:
        rec.lrs.append(lrs)
    training.scale_hyperparameters(rec, opt)
    batch.holdout_not_trained(rec, [p for g in opt.param_groups for p in g["params"]])
    if rec.detailed:
        with rec.quiet():
            rec.step_snapshot = _snapshot(opt)


def _snapshot(opt) -> dict:
    """Copies of the weights before the step (up to a budget of elements)."""
    before = {}
    budget = SNAPSHOT_BUDGET
    for g in opt.param_groups:
        for p in g["params"]:
            if p.numel() <= budget:
                before[id(p)] = p.detach().clone()
                budget -= p.numel()
    return before


@guarded
def _step_post(rec: Recorder, opt) -> None:
    if rec.busy:
        return
    training.restore_hyperparameters(rec, opt)
    rec.optimizer_steps[id(opt)] += 1
    rec.step_losses.append(
        rec.last_backward_value if rec.last_backward_value is not None else float("nan")
    )
    rec.step_optimizers.append(
        list(rec.optimizers).index(id(opt)) if id(opt) in rec.optimizers else -1
    )
    before, rec.step_snapshot = rec.step_snapshot, None
    frame = repo_frame()
    if before is not None and len(rec.steps) < MAX_EVENTS:
        with rec.quiet():
            rec.steps.append(_step_record(rec, opt, before, frame))
    rec.event("step", frame)
    if rec.detailed or len(rec.events) <= rec.cfg.detail_steps + 1:
        rec.events.append([])
    training.after_step(rec, opt)
    rec.zero_grad_since_step = False
    rec.backward_since_step = 0
    rec.own_backwards[id(opt)] = 0
    if rec.cfg.probe_code and rec.probe_result is None:
        probe_and_stop(rec)
    reference_model.step(rec)
    batch.holdout_after_step(rec)
    rec.check_budget()


def _step_record(rec: Recorder, opt, before: dict, frame) -> dict:
    """Per-parameter update norms of this step, and the parameters it left unchanged."""
    unchanged = []
    n_with_grad = 0
    for g in opt.param_groups:
        for p in g["params"]:
            b = before.get(id(p))
            if b is None:
                continue
            r = rec.param(p)
            d = float((p.detach() - b).double().norm())
            w = float(b.double().norm())
            r.n_delta += 1
            if d == 0.0:
                r.n_delta_zero += 1
                if p.requires_grad:
                    unchanged.append(id(p))
            if math.isfinite(d):
                r.sum_delta += d
                if w > 0:  # a ratio to a zero weight (a bias initialized at 0) says nothing
                    r.sum_ratio += d / w
                    r.n_ratio += 1
            if p.grad is not None:
                n_with_grad += 1
    return {
        "index": rec.n_steps,
        "optimizer": type(opt).__name__,
        "frame": frame_dict(frame),
        "lr": [lr_of(g) for g in opt.param_groups],
        "n_params": sum(len(g["params"]) for g in opt.param_groups),
        "params_with_grad": n_with_grad,
        "unchanged": unchanged,
        "backwards_since_last_step": rec.backward_since_step,
        "zero_grad_since_last_step": rec.zero_grad_since_step,
    }
