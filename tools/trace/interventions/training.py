"""Interventions on the training loop: train/eval mode at each forward, where gradients
are reset, the optimizer's hyperparameters and parameters, extra steps, clipping."""

from __future__ import annotations

import torch

from ..recorder import Recorder
from . import batch


def force_module_mode(rec: Recorder, module: torch.nn.Module, grad: bool) -> None:
    """force_train_mode: training forwards run in train mode; force_eval_mode_in_eval:
    no-grad forwards run in eval mode."""
    iv = rec.iv
    if iv.force_train_mode and grad and not module.training:
        module.train()
    if iv.force_eval_mode_in_eval and not grad and module.training:
        module.eval()


def drops_zero_grad(rec: Recorder, pending: int) -> bool:
    """defer_zero_grad: a zero_grad between backward and the step of what it zeroes (its
    optimizer's own step, `pending` backwards behind) does nothing."""
    return rec.iv.defer_zero_grad and pending > 0


def add_missing_params(rec: Recorder, opt: torch.optim.Optimizer) -> None:
    """add_missing_params: at the first step, trainable parameters that ran in the
    training forward but belong to no optimizer join this one."""
    st = rec.iv_state
    if not rec.iv.add_missing_params or st.added_missing:
        return
    st.added_missing = True
    owned = {id(p) for o in rec.optimizers.values() for g in o.param_groups for p in g["params"]}
    missing = [
        r.ref for r in rec.params.values()
        if r.executed and r.ref.requires_grad and r.ref.is_leaf and id(r.ref) not in owned
    ]  # fmt: skip
    if missing:
        opt.add_param_group({"params": missing})
        rec.warnings.append(
            {
                "category": "Intervention",
                "message": f"added {len(missing)} parameters to {type(opt).__name__}",
            }
        )


def unfreeze_params(rec: Recorder, opt: torch.optim.Optimizer) -> None:
    """unfreeze_params: at the first step, the parameters this optimizer holds with
    requires_grad=False are set to train (from the next backward on)."""
    st = rec.iv_state
    if not rec.iv.unfreeze_params or st.unfrozen:
        return
    st.unfrozen = True
    for g in opt.param_groups:
        for p in g["params"]:
            if p.is_leaf and not p.requires_grad:
                p.requires_grad_(True)


def train_left_out(rec: Recorder, opt: torch.optim.Optimizer) -> None:
    """train_left_out: at the first step, the parameters a line of the program froze
    (requires_grad_(False)), that ran in the training forward and that no optimizer holds
    are set to train and join this one (a freeze applied to the wrong part, with the
    optimizer built from the trainable rest)."""
    st = rec.iv_state
    if not rec.iv.train_left_out or st.left_out_added:
        return
    st.left_out_added = True
    owned = {id(p) for o in rec.optimizers.values() for g in o.param_groups for p in g["params"]}
    left = [
        r.ref for pid, r in rec.params.items()
        if r.executed and r.ref.is_leaf and not r.ref.requires_grad
        and pid in rec.frozen_at and id(r.ref) not in owned
    ]  # fmt: skip
    for p in left:
        p.requires_grad_(True)
    if left:
        opt.add_param_group({"params": left})


def scale_hyperparameters(rec: Recorder, opt: torch.optim.Optimizer) -> None:
    """lr_scale, weight_decay_scale: scaled for this step only (the program's own
    schedule keeps reading its values)."""
    iv = rec.iv
    saved = []
    for g in opt.param_groups:
        saved.append((g.get("lr"), g.get("weight_decay")))
        if iv.lr_scale != 1.0 and isinstance(g.get("lr"), (int, float)):
            g["lr"] = g["lr"] * iv.lr_scale
        if iv.weight_decay_scale != 1.0 and isinstance(g.get("weight_decay"), (int, float)):
            g["weight_decay"] = g["weight_decay"] * iv.weight_decay_scale
    rec.iv_state.saved_groups = saved


def restore_hyperparameters(rec: Recorder, opt: torch.optim.Optimizer) -> None:
    saved, rec.iv_state.saved_groups = rec.iv_state.saved_groups, None
    for g, (lr, wd) in zip(opt.param_groups, saved or []):
        if lr is not None:
            g["lr"] = lr
        if wd is not None:
            g["weight_decay"] = wd


def after_step(rec: Recorder, opt: torch.optim.Optimizer) -> None:
    """defer_zero_grad: gradients are reset right after the step instead."""
    if rec.iv.defer_zero_grad:
        for g in opt.param_groups:
            for p in g["params"]:
                p.grad = None


def before_backward(rec: Recorder) -> None:
    """zero_grad_before_backward: no gradient is left over from earlier backwards."""
    if rec.iv.zero_grad_before_backward:
        for r in rec.params.values():
            if r.ref.grad is not None:
                r.ref.grad = None


def after_backward(rec: Recorder) -> None:
    """step_after_backward: every optimizer steps after each backward, and its gradients
    are reset then, as a loop that steps would (a program whose reset sits next to the
    missing step never resets otherwise)."""
    if rec.iv.step_after_backward:
        for opt in list(rec.optimizers.values()):
            opt.step()
            opt.zero_grad(set_to_none=True)
    if rec.iv.reference_lr > 0 and not rec.optimizers:
        reference_by_hand(rec)


def reference_by_hand(rec: Recorder) -> None:
    """reference_lr with a hand-written update (no optimizer object): after each backward
    Adam at the reference lr updates every parameter the training uses, and their
    gradients are zeroed, so the program's own `p -= lr * p.grad` that follows moves
    nothing."""
    params = [
        r.ref
        for r in rec.params.values()
        if (r.executed or r.module_class or r.reached) and r.ref.requires_grad and r.ref.is_leaf
    ]
    with rec.quiet(), torch.no_grad():
        st = rec.iv_state
        if st.reference is None:
            st.reference = torch.optim.Adam(params, lr=rec.iv.reference_lr)
        else:
            held = {id(p) for g in st.reference.param_groups for p in g["params"]}
            new = [p for p in params if id(p) not in held]
            if new:  # a plain tensor counts as a parameter from its second backward
                st.reference.add_param_group({"params": new})
        st.reference._ti_reference = True
        batch.holdout_not_trained(rec, params)
        st.reference.step()
        for p in params:
            if p.grad is not None:
                p.grad.zero_()


def clip_limit(rec: Recorder, max_norm):
    """no_clip: clip_grad_norm_ measures the norm but clips nothing; clip_to: it clips at
    that norm instead of the program's."""
    if rec.iv.no_clip:
        return float("inf")
    return rec.iv.clip_to if rec.iv.clip_to > 0 else max_norm


def clips(rec: Recorder) -> bool:
    """no_clip: clip_grad_value_ leaves the gradients as they are."""
    return not rec.iv.no_clip
