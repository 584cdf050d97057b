"""Patches and hooks that feed the recorder, installed before the program runs.

Module calls (`nn.Module.__call__`), optimizer construction, step and zero_grad,
`Tensor.backward`, gradient clipping, scheduler steps, DataLoader construction and
iteration, Parameter creation, CUDA requests and warnings. Every hook body is
guarded: an error inside the tracer is counted, never raised into the program,
except `StopTracing`, which ends the program on purpose.
"""

from __future__ import annotations

import functools
import math
import warnings

import torch
from torch import nn
from torch.utils.data import DataLoader, RandomSampler

from .probes import forward_probes, holdout_loss
from .recorder import MAX_CURVE, MAX_EVENTS, Recorder, StopTracing, grad_stats
from .tensors import (
    frame_dict,
    frame_key,
    map_tensors,
    norm,
    relpath,
    repo_frame,
    row_fingerprints,
    summarize,
    tensors_in,
)


def guarded(fn):
    """Run tracer logic; count its failures instead of breaking the traced program."""

    @functools.wraps(fn)
    def wrapper(rec: Recorder, *a, **k):
        try:
            return fn(rec, *a, **k)
        except StopTracing:
            raise
        except Exception as e:  # noqa: BLE001 - the program must not see tracer bugs
            rec.counts["tracer_errors"] += 1
            if rec.counts["tracer_errors"] <= 5:
                rec.warnings.append(
                    {
                        "category": "TracerError",
                        "message": f"{fn.__name__}: {type(e).__name__}: {e}"[:300],
                    }
                )
            return None

    return wrapper


def _is_loss(m: nn.Module) -> bool:
    return isinstance(m, nn.modules.loss._Loss)


def _has_params(m: nn.Module) -> bool:
    return next(m.parameters(), None) is not None


def _clone(t: torch.Tensor) -> torch.Tensor:
    c = t.detach().clone()
    c._ti_batch = True
    return c


# ---- module calls ------------------------------------------------------------------


@guarded
def _model_forward(rec: Recorder, module: nn.Module, args: tuple, kwargs: dict):
    rec.check_budget()
    iv = rec.iv
    grad = torch.is_grad_enabled()
    mid = id(module)
    if mid not in rec.models:
        rec.models[mid] = module
        rec.model_frames[mid] = getattr(module, "_ti_created", None)
        rec.track_module_params(module, executed=False)
        if not rec.init_stats:
            with rec.quiet():
                rec.init_stats = _init_stats(module)
    if iv.force_train_mode and grad and not module.training:
        module.train()
    if iv.force_eval_mode_in_eval and not grad and module.training:
        module.eval()
    changed = False
    if grad and iv.fixed_batch:
        n = rec.fixed.get("n_forward", 0)
        rec.fixed["n_forward"] = n + 1
        if iv.holdout and (
            (rec.fixed_level == "forward" and n == 1)
            or rec.fixed.pop("holdout_pending_forward", False)
        ):
            rec.fixed["holdout_args"] = (map_tensors(args, _clone), map_tensors(kwargs, _clone))
            rec.fixed["holdout_model"] = module
            rec.fixed["holdout_pending"] = True
        if rec.fixed_level == "forward":
            if "args" not in rec.fixed:
                rec.fixed["args"] = (map_tensors(args, _clone), map_tensors(kwargs, _clone))
            else:
                a, k = rec.fixed["args"]
                args, kwargs = map_tensors(a, _clone), map_tensors(k, _clone)
                changed = True
    tensors = tensors_in(args) or tensors_in(kwargs)
    _resolve_feeders(rec, tensors, grad)
    if grad and rec.detailed:
        rec.track_module_params(module, executed=True)
        if mid not in rec.executed:
            rec.executed[mid] = module
            _scan_tensor_attributes(rec, module)
    if (
        iv.standardize_inputs
        and tensors
        and tensors[0].is_floating_point()
        and tensors[0].dim() >= 2
    ):
        x = tensors[0]
        if rec.standardize is None:
            dims = [0] + list(range(2, x.dim()))
            mu = x.detach().mean(dims, keepdim=True)
            sd = x.detach().std(dims, keepdim=True).clamp_min(1e-6)
            rec.standardize = (mu, sd)
        mu, sd = rec.standardize
        if mu.shape[1:] == x.shape[1:] or mu.dim() == x.dim():
            new_x = (x - mu) / sd
            args = map_tensors(args, lambda t: new_x if t is x else t)
            kwargs = map_tensors(kwargs, lambda t: new_x if t is x else t)
            tensors = [new_x, *tensors[1:]]
            changed = True
    for t in tensors:
        t._ti_batch = True
    if tensors and tensors[0].dim() >= 1:
        rec.batch_size = int(tensors[0].shape[0])
        rec.last_input = tensors[0]
    rec.between_forward_and_backward = grad
    rec.activation_calls.clear()
    frame = repo_frame()
    rec.event("forward", frame)
    rec.last_grad_forward = (bool(module.training), rec.n_steps, frame) if grad else None
    record = None
    # no-grad forwards (evaluation, frozen feature extractors) are recorded beyond the
    # detailed steps: the evaluation phase usually comes last
    if rec.detailed or (not grad and len(rec.forwards) < 5 * MAX_EVENTS):
        with rec.quiet():
            record = {
                "index": rec.counts["forward"] - 1,
                "model": type(module).__name__,
                "frame": frame_dict(frame),
                "training": bool(module.training),
                "grad_enabled": grad,
                "phase": None,
                "step": rec.n_steps,
                "inputs": [summarize(t, values=False) for t in tensors[:4]],
                "loader": rec.current_loader,
                "other_mode": _other_mode_submodules(module),
            }
            fps = row_fingerprints(tensors[0]) if tensors else []
            record["_batch"] = ([t.detach() for t in tensors[:4]], fps)
            record["_input_ids"] = {id(t) for t in tensors}
            rec.forwards.append(record)
            rec.fw_by_index[record["index"]] = record
    rec.current_forward = record
    if grad and rec.first_batch is None and rec.cfg.probe_code:
        rec.first_batch = (map_tensors(args, _clone), map_tensors(kwargs, _clone))
    if rec.cfg.probes and grad and "forward" not in rec.probes and tensors:
        rec.probes["forward"] = forward_probes(rec, module, args, kwargs)
    return (args, kwargs) if changed else None


def _resolve_feeders(rec: Recorder, tensors: list[torch.Tensor], grad: bool) -> None:
    """Decide the phase of earlier no-grad forwards from what this forward consumes.

    A frozen feature extractor (or a teacher) runs under no_grad inside a training
    iteration: its output, or its very input tensors, feed this training forward. Any
    other pending no-grad forward was an evaluation.
    """
    if not rec.pending_nograd:
        return
    consumed = {getattr(t, "_ti_fw", None) for t in tensors}
    ids = {id(t) for t in tensors}
    for record in rec.pending_nograd:
        feeds = record["index"] in consumed or bool(record.get("_input_ids", set()) & ids)
        rec._resolve(record, "train" if feeds and grad else "eval")
    rec.pending_nograd.clear()


def _init_stats(module: nn.Module) -> list[dict]:
    """Scale and symmetry of each weight at the first forward (bad initialization)."""
    out = []
    for name, p in list(module.named_parameters())[:200]:
        x = p.detach().float()
        d = {
            "name": name,
            "shape": list(x.shape),
            "std": float(x.std()) if x.numel() > 1 else 0.0,
            "abs_mean": float(x.abs().mean()) if x.numel() else 0.0,
        }
        if x.dim() >= 2 and x.shape[0] > 1:
            rows = x.reshape(x.shape[0], -1)
            d["identical_rows"] = bool((rows - rows[:1]).abs().max() == 0)
        out.append(d)
    return out


def _other_mode_submodules(module: nn.Module) -> list[dict]:
    """Submodules whose train/eval flag differs from the model's, where it matters."""
    out = []
    for path, sub in module.named_modules():
        if sub is module or sub.training == module.training:
            continue
        kind = type(sub).__name__
        matters = "Dropout" in kind or "BatchNorm" in kind or "Norm" in kind or _has_params(sub)
        if matters:
            out.append({"path": path, "type": kind, "training": bool(sub.training)})
            if len(out) >= 20:
                break
    return out


@guarded
def _model_output(rec: Recorder, module: nn.Module, output) -> None:
    outs = tensors_in(output)
    for t in outs:
        t._ti_out = True
    record = rec.current_forward
    rec.current_forward = None
    if record is None:
        return
    record["outputs"] = [list(t.shape) for t in outs[:4]]
    for t in outs:
        t._ti_fw = record["index"]
    if record.get("phase") is not None:
        return
    if not torch.is_grad_enabled():
        rec.pending_nograd.append(record)
        return
    gfn = next((t.grad_fn for t in outs if t.grad_fn is not None), None)
    if gfn is not None and rec.detailed:
        rec.pending.append((record, gfn))
    else:
        rec._resolve(record, "train" if module.training and torch.is_grad_enabled() else "eval")


@guarded
def _sub_forward(rec: Recorder, module: nn.Module, args: tuple) -> None:
    grad = torch.is_grad_enabled()
    top = rec.stack[0][0] if rec.stack else None
    if not grad and rec.top_grad_enabled and rec.detailed:
        frame = repo_frame()
        key = f"grad_disabled@{type(module).__name__}@{frame_key(frame)}"
        if key not in rec.submodule_modes:
            rec.submodule_modes[key] = {
                "kind": "grad_disabled",
                "module": type(module).__name__,
                "frame": frame_dict(frame),
                "calls": 0,
            }
        rec.submodule_modes[key]["calls"] += 1
    if (
        isinstance(module, nn.modules.batchnorm._BatchNorm)
        and module.training
        and args
        and isinstance(args[0], torch.Tensor)
    ):
        x = args[0]
        where = getattr(module, "_ti_created", None)
        key = frame_key(where)
        bn = rec.bn_calls.setdefault(
            key,
            {
                "module": type(module).__name__,
                "frame": frame_dict(where),
                "calls": 0,
                "min_batch": None,
                "min_values_per_channel": None,
            },
        )
        bn["calls"] += 1
        b = int(x.shape[0])
        per_channel = int(x.numel() // max(x.shape[1], 1)) if x.dim() >= 2 else b
        bn["min_batch"] = b if bn["min_batch"] is None else min(bn["min_batch"], b)
        bn["min_values_per_channel"] = (
            per_channel
            if bn["min_values_per_channel"] is None
            else min(bn["min_values_per_channel"], per_channel)
        )
    if not (grad and rec.detailed):
        return
    mid = id(module)
    if mid in rec.executed:
        return
    rec.executed[mid] = module
    rec.track_module_params(module, executed=True)
    _scan_tensor_attributes(rec, module)
    del top


def _scan_tensor_attributes(rec: Recorder, module: nn.Module) -> None:
    """Tensors requiring grad held as plain attributes: invisible to parameters()."""
    for attr, value in vars(module).items():
        if attr.startswith("_"):
            continue
        items = [(attr, value)]
        if isinstance(value, (list, tuple)):
            items = [(f"{attr}[{i}]", v) for i, v in enumerate(value[:16])]
        elif isinstance(value, dict):
            items = [(f"{attr}[{k!r}]", v) for k, v in list(value.items())[:16]]
        for name, v in items:
            if isinstance(v, torch.Tensor) and not isinstance(v, nn.Parameter) and v.requires_grad:
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


def _install_module_call(rec: Recorder, undo: list) -> None:
    orig_call = nn.Module.__call__

    def call(self, *args, **kwargs):
        if rec.busy or rec.status != "running":
            return orig_call(self, *args, **kwargs)
        if rec.stack:
            role = "sub"
        elif _is_loss(self) or not _has_params(self):
            role = "other"
        else:
            role = "model"
        if role == "model":
            rec.top_grad_enabled = torch.is_grad_enabled()
            new = _model_forward(rec, self, args, kwargs)
            if new is not None:
                args, kwargs = new
        elif role == "sub":
            _sub_forward(rec, self, args)
        rec.stack.append((self, role))
        try:
            out = orig_call(self, *args, **kwargs)
        finally:
            rec.stack.pop()
        if role == "model":
            _model_output(rec, self, out)
        return out

    nn.Module.__call__ = call
    undo.append(lambda: setattr(nn.Module, "__call__", orig_call))


def _install_module_init(rec: Recorder, undo: list) -> None:
    orig_init = nn.Module.__init__

    def init(self, *a, **k):
        orig_init(self, *a, **k)
        if not rec.busy:
            object.__setattr__(self, "_ti_created", _construction_frame(self))

    nn.Module.__init__ = init
    undo.append(lambda: setattr(nn.Module, "__init__", orig_init))

    orig_new = nn.Parameter.__new__

    def new(cls, data=None, requires_grad=True):
        p = orig_new(cls, data, requires_grad)
        if not rec.busy and rec.stack and rec.status == "running" and torch.is_grad_enabled():
            frame = repo_frame()
            key = frame_key(frame)
            c = rec.created_in_forward.setdefault(
                key, {"frame": frame_dict(frame), "count": 0, "shapes": []}
            )
            c["count"] += 1
            if len(c["shapes"]) < 4:
                c["shapes"].append(list(p.shape))
            rec.param(p).created_in_forward = True
        return p

    nn.Parameter.__new__ = staticmethod(new)
    undo.append(lambda: setattr(nn.Parameter, "__new__", staticmethod(orig_new)))


def _construction_frame(obj):
    """Where an object was built: the innermost repo frame outside its own __init__ chain."""
    import sys

    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_name == "__init__" and f.f_locals.get("self") is obj:
            f = f.f_back
            continue
        fr = repo_frame_of(f)
        if fr is not None:
            return fr
        f = f.f_back
    return None


def repo_frame_of(f):
    from .tensors import _in_repo

    if _in_repo(f.f_code.co_filename):
        return (relpath(f.f_code.co_filename), f.f_lineno, f.f_code.co_name)
    return None


# ---- optimizers --------------------------------------------------------------------


def _install_optimizer(rec: Recorder, undo: list) -> None:
    Opt = torch.optim.Optimizer
    orig_init = Opt.__init__

    def init(self, params, defaults, *a, **k):
        orig_init(self, params, defaults, *a, **k)
        if rec.busy:
            return
        if rec.optimizers and rec.n_steps:
            rec.open_detail_window("a new optimizer")
        rec.optimizers[id(self)] = self
        rec.optimizer_frames[id(self)] = _construction_frame(self)
        for g in self.param_groups:
            for p in g["params"]:
                rec.param(p)

    Opt.__init__ = init
    undo.append(lambda: setattr(Opt, "__init__", orig_init))

    orig_zero = Opt.zero_grad
    orig_mzero = nn.Module.zero_grad

    def make_zero(orig):
        def zero_grad(self, set_to_none: bool = True):
            if not rec.busy and rec.status == "running":
                rec.event("zero_grad", repo_frame())
                if rec.iv.defer_zero_grad and rec.backward_since_step > 0:
                    return None
                rec.zero_grad_since_step = True
            return orig(self, set_to_none)

        return zero_grad

    Opt.zero_grad = make_zero(orig_zero)
    nn.Module.zero_grad = make_zero(orig_mzero)
    undo.append(lambda: setattr(Opt, "zero_grad", orig_zero))
    undo.append(lambda: setattr(nn.Module, "zero_grad", orig_mzero))

    from torch.optim.optimizer import (
        register_optimizer_step_post_hook,
        register_optimizer_step_pre_hook,
    )

    def pre(opt, args, kwargs) -> None:
        _step_pre(rec, opt)
        # the optimizer's own tensor arithmetic is not the program's: run it outside the
        # function mode (unless a closure re-runs the forward inside step, as LBFGS does)
        # args[0] is the optimizer itself; anything after it is a closure
        if len(args) <= 1 and not kwargs.get("closure") and rec.step_mode_off is None:
            rec.step_mode_off = torch._C.DisableTorchFunction()
            rec.step_mode_off.__enter__()

    def post(opt, args, kwargs) -> None:
        if rec.step_mode_off is not None:
            ctx, rec.step_mode_off = rec.step_mode_off, None
            ctx.__exit__(None, None, None)
        _step_post(rec, opt)

    h1 = register_optimizer_step_pre_hook(pre)
    h2 = register_optimizer_step_post_hook(post)
    undo.append(h1.remove)
    undo.append(h2.remove)


@guarded
def _step_pre(rec: Recorder, opt) -> None:
    if rec.busy:
        return
    rec.optimizers.setdefault(id(opt), opt)
    iv = rec.iv
    if iv.add_missing_params and not rec.fixed.get("added_missing"):
        rec.fixed["added_missing"] = True
        owned = {
            id(p) for o in rec.optimizers.values() for g in o.param_groups for p in g["params"]
        }
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
    for g in opt.param_groups:
        for p in g["params"]:
            if not p.requires_grad:
                rec.param(p).frozen_steps += 1
    lrs = [_lr(g) for g in opt.param_groups]
    if id(opt) == next(iter(rec.optimizers)) and len(rec.lrs) < MAX_CURVE:
        rec.lrs.append(lrs)
    saved = []
    for g in opt.param_groups:
        saved.append((g.get("lr"), g.get("weight_decay")))
        if iv.lr_scale != 1.0 and isinstance(g.get("lr"), (int, float)):
            g["lr"] = g["lr"] * iv.lr_scale
        if iv.weight_decay_scale != 1.0 and isinstance(g.get("weight_decay"), (int, float)):
            g["weight_decay"] = g["weight_decay"] * iv.weight_decay_scale
    rec.fixed["saved_groups"] = saved
    if rec.detailed:
        with rec.quiet():
            before = {}
            budget = 20_000_000
            for g in opt.param_groups:
                for p in g["params"]:
                    if p.numel() <= budget:
                        before[id(p)] = p.detach().clone()
                        budget -= p.numel()
            rec.fixed["before"] = before


def _lr(g) -> float:
    lr = g.get("lr", float("nan"))
    try:
        return float(lr)
    except (TypeError, ValueError):
        return float("nan")


@guarded
def _step_post(rec: Recorder, opt) -> None:
    if rec.busy:
        return
    for g, (lr, wd) in zip(opt.param_groups, rec.fixed.pop("saved_groups", [])):
        if lr is not None:
            g["lr"] = lr
        if wd is not None:
            g["weight_decay"] = wd
    rec.optimizer_steps[id(opt)] += 1
    rec.step_losses.append(
        rec.last_backward_value if rec.last_backward_value is not None else float("nan")
    )
    before = rec.fixed.pop("before", None)
    frame = repo_frame()
    if before is not None and len(rec.steps) < MAX_EVENTS:
        with rec.quiet():
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
                        r.sum_ratio += d / (w + 1e-12)
                    if p.grad is not None:
                        n_with_grad += 1
            rec.steps.append(
                {
                    "index": rec.n_steps,
                    "optimizer": type(opt).__name__,
                    "frame": frame_dict(frame),
                    "lr": [_lr(g) for g in opt.param_groups],
                    "n_params": sum(len(g["params"]) for g in opt.param_groups),
                    "params_with_grad": n_with_grad,
                    "unchanged": unchanged,
                    "backwards_since_last_step": rec.backward_since_step,
                    "zero_grad_since_last_step": rec.zero_grad_since_step,
                }
            )
    rec.event("step", frame)
    if rec.detailed or len(rec.events) <= rec.cfg.detail_steps + 1:
        rec.events.append([])
    if rec.iv.defer_zero_grad:
        for g in opt.param_groups:
            for p in g["params"]:
                p.grad = None
    rec.zero_grad_since_step = False
    rec.backward_since_step = 0
    if rec.cfg.probe_code and rec.probe_result is None:
        _user_probe(rec)
    if rec.iv.holdout and "holdout_target" in rec.fixed and "holdout_args" in rec.fixed:
        v = holdout_loss(rec)
        if v is not None and len(rec.holdout_losses) < MAX_CURVE:
            rec.holdout_losses.append(v)
    rec.check_budget()


# ---- backward -------------------------------------------------------------------------


def _walk_graph(root) -> tuple[set[int], set, int]:
    """Leaves (AccumulateGrad variables) and nodes reachable from a grad_fn."""
    leaves: set[int] = set()
    nodes: set = set()
    stack = [root] if root is not None else []
    while stack and len(nodes) < 200_000:
        node = stack.pop()
        if node in nodes:
            continue
        nodes.add(node)
        var = getattr(node, "variable", None)
        if var is not None:
            leaves.add(id(var))
        for nxt, _ in getattr(node, "next_functions", ()):
            if nxt is not None and nxt not in nodes:
                stack.append(nxt)
    return leaves, nodes, len(nodes)


@guarded
def _before_backward(rec: Recorder, loss: torch.Tensor) -> None:
    frame = repo_frame()
    with rec.quiet():
        value = float(loss.detach().float().mean()) if loss.numel() else float("nan")
    if len(rec.losses) < MAX_CURVE:
        rec.losses.append(value)
    rec.last_backward_value = value
    rec.event("backward", frame)
    rec.backward_since_step += 1
    if rec.last_grad_forward is not None:
        training, step, fframe = rec.last_grad_forward
        counts = rec.train_mode_counts
        counts["train" if training else "eval"] += 1
        if not training and counts["first_eval"] is None:
            counts["first_eval"] = {"step": step, "frame": frame_dict(fframe)}
        rec.last_grad_forward = None
    rec.between_forward_and_backward = False
    if rec.iv.zero_grad_before_backward:
        for r in rec.params.values():
            if r.ref.grad is not None:
                r.ref.grad = None
    for record in rec.pending_nograd:
        rec._resolve(record, "eval")
    rec.pending_nograd.clear()
    if not rec.detailed:
        for record, _ in rec.pending:
            rec._resolve(record, "train")
        rec.pending.clear()
        return
    with rec.quiet():
        checksum = 0.0
        for r in rec.params.values():
            if r.executed or r.module_class:
                checksum += float(r.ref.detach().double().sum())
        if rec.param_checksum is not None:
            rec.update_intervals["observed"] += 1
            if checksum != rec.param_checksum:
                rec.update_intervals["changed"] += 1
        rec.param_checksum = checksum
        left_over = []
        if rec.backward_since_step == 1:
            for pid, r in rec.params.items():
                g = r.ref.grad
                if g is not None and bool((g != 0).any()):
                    left_over.append(pid)
                    r.grad_before += 1
        leaves, nodes, n_nodes = _walk_graph(loss.grad_fn)
        unreachable = []
        for pid, r in rec.params.items():
            if r.executed and r.ref.requires_grad:
                r.n_walks += 1
                if pid in leaves:
                    r.n_reachable += 1
                else:
                    unreachable.append(pid)
        nonparam = len([lid for lid in leaves if lid not in rec.params])
        still = []
        for record, gfn in rec.pending:
            if gfn in nodes:
                rec._resolve(record, "train")
                if record.get("loader"):
                    info = rec.loaders.get(record["loader"])
                    if info is not None:
                        info["role"] = "train"
            elif loss.grad_fn is None or record.get("training"):
                # a rebuilt/detached loss reaches nothing, and a train-mode forward whose
                # output the loss does not reach is a cut graph: both are training
                rec._resolve(record, "train")
            else:
                rec._resolve(record, "eval")  # e.g. a validation pass without no_grad
        rec.pending = still
        if len(rec.backwards) < MAX_EVENTS:
            rec.backwards.append(
                {
                    "index": rec.counts["backward"] - 1,
                    "step": rec.n_steps,
                    "frame": frame_dict(frame),
                    "value": value if math.isfinite(value) else str(value),
                    "shape": list(loss.shape),
                    "requires_grad": bool(loss.requires_grad),
                    "is_leaf": bool(loss.is_leaf),
                    "grad_fn": type(loss.grad_fn).__name__ if loss.grad_fn is not None else None,
                    "broadcast_in_graph": getattr(loss, "_ti_bcast", None),
                    "graph_nodes": n_nodes,
                    "reachable": [pid for pid in leaves if pid in rec.params],
                    "unreachable_executed": unreachable,
                    "nonparam_leaves": nonparam,
                    "left_over": left_over,
                    "zero_grad_since_last_step": rec.zero_grad_since_step,
                    "backward_in_iteration": rec.backward_since_step,
                }
            )


def _user_probe(rec: Recorder) -> None:
    from .user_probe import run_user_probe

    rec.probe_result = run_user_probe(rec, rec.cfg.probe_code or "")
    rec.status = "stopped"
    rec.stop_reason = "stopped after the probe ran"
    raise StopTracing(rec.stop_reason)


@guarded
def _after_backward(rec: Recorder) -> None:
    if rec.detailed:
        with rec.quiet():
            for r in rec.params.values():
                grad_stats(r)
    if rec.iv.step_after_backward:
        for opt in list(rec.optimizers.values()):
            opt.step()
    if (
        not rec.optimizers
        and rec.iv.holdout
        and "holdout_target" in rec.fixed
        and "holdout_args" in rec.fixed
    ):
        # hand-written updates: the loss on the held-out batch after each iteration
        v = holdout_loss(rec)
        if v is not None and len(rec.holdout_losses) < MAX_CURVE:
            rec.holdout_losses.append(v)
    if (
        rec.cfg.probe_code
        and rec.probe_result is None
        and not rec.optimizers
        and rec.counts["backward"] >= 1
    ):
        _user_probe(rec)


def _install_backward(rec: Recorder, undo: list) -> None:
    orig = torch.Tensor.backward
    orig_fn = torch.autograd.backward

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        if rec.busy or rec.in_backward or rec.status != "running":
            return orig(self, gradient, retain_graph, create_graph, inputs)
        rec.in_backward = True
        try:
            _before_backward(rec, self)
            out = orig(self, gradient, retain_graph, create_graph, inputs)
        finally:
            rec.in_backward = False
        _after_backward(rec)
        rec.check_budget()
        return out

    def autograd_backward(tensors, *a, **k):
        if rec.busy or rec.in_backward or rec.status != "running":
            return orig_fn(tensors, *a, **k)
        first = tensors if isinstance(tensors, torch.Tensor) else next(iter(tensors), None)
        rec.in_backward = True
        try:
            if isinstance(first, torch.Tensor):
                _before_backward(rec, first)
            out = orig_fn(tensors, *a, **k)
        finally:
            rec.in_backward = False
        _after_backward(rec)
        rec.check_budget()
        return out

    torch.Tensor.backward = backward
    torch.autograd.backward = autograd_backward
    undo.append(lambda: setattr(torch.Tensor, "backward", orig))
    undo.append(lambda: setattr(torch.autograd, "backward", orig_fn))


# ---- clipping and schedulers ------------------------------------------------------


def _install_clip(rec: Recorder, undo: list) -> None:
    from torch.nn.utils import clip_grad

    orig_norm = clip_grad.clip_grad_norm_
    orig_value = clip_grad.clip_grad_value_

    def clip_grad_norm_(
        parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None
    ):
        params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
        if rec.busy or rec.status != "running":
            return orig_norm(params, max_norm, norm_type, error_if_nonfinite, foreach)
        limit = float("inf") if rec.iv.no_clip else max_norm
        total = orig_norm(params, limit, norm_type, error_if_nonfinite, foreach)
        _record_clip(rec, "norm", float(max_norm), len(params), total)
        return total

    def clip_grad_value_(parameters, clip_value, foreach=None):
        params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
        if rec.busy or rec.status != "running":
            return orig_value(params, clip_value, foreach)
        grads = [p.grad for p in params if p.grad is not None]
        biggest = max((float(g.detach().abs().max()) for g in grads if g.numel()), default=0.0)
        if not rec.iv.no_clip:
            orig_value(params, clip_value, foreach)
        _record_clip(rec, "value", float(clip_value), len(params), torch.tensor(biggest))
        return None

    for mod in (clip_grad, torch.nn.utils):
        for name, fn in (
            ("clip_grad_norm_", clip_grad_norm_),
            ("clip_grad_value_", clip_grad_value_),
        ):
            old = getattr(mod, name)
            setattr(mod, name, fn)
            undo.append(lambda m=mod, n=name, o=old: setattr(m, n, o))


@guarded
def _record_clip(rec: Recorder, kind: str, limit: float, n_params: int, total) -> None:
    frame = repo_frame()
    key = f"{kind}@{frame_key(frame)}"
    c = rec.clips.setdefault(
        key,
        {
            "kind": kind,
            "frame": frame_dict(frame),
            "limit": limit,
            "calls": 0,
            "clipped": 0,
            "n_params_min": n_params,
            "totals": [],
        },
    )
    c["calls"] += 1
    c["n_params_min"] = min(c["n_params_min"], n_params)
    t = float(total) if isinstance(total, torch.Tensor) else float(total or 0.0)
    if math.isfinite(t) and t > limit:
        c["clipped"] += 1
    if len(c["totals"]) < 200:
        c["totals"].append(t if math.isfinite(t) else None)
    rec.event("clip", frame)


def _install_scheduler(rec: Recorder, undo: list) -> None:
    from torch.optim import lr_scheduler as L

    base = L.LRScheduler
    orig_init = base.__init__

    def init(self, *a, **k):
        rec.sched_init += 1
        try:
            orig_init(self, *a, **k)
        finally:
            rec.sched_init -= 1

    base.__init__ = init
    undo.append(lambda: setattr(base, "__init__", orig_init))
    for cls in (base, L.ReduceLROnPlateau):
        orig_step = cls.__dict__["step"]

        def step(self, *a, __orig=orig_step, **k):
            out = __orig(self, *a, **k)
            if not rec.busy and rec.sched_init == 0 and rec.status == "running":
                _record_scheduler(rec, self)
            return out

        cls.step = step
        undo.append(lambda c=cls, o=orig_step: setattr(c, "step", o))


@guarded
def _record_scheduler(rec: Recorder, sched) -> None:
    frame = repo_frame()
    s = rec.schedulers.get(id(sched))
    if s is None:
        s = rec.schedulers[id(sched)] = {
            "class": type(sched).__name__,
            "frame": frame_dict(_construction_site(sched)),
            "step_frame": frame_dict(frame),
            "steps": 0,
            "before_first_optimizer_step": 0,
            "lr_after": [],
        }
    s["steps"] += 1
    if rec.n_steps == 0:
        s["before_first_optimizer_step"] += 1
    opt = getattr(sched, "optimizer", None)
    if opt is not None and len(s["lr_after"]) < 400:
        s["lr_after"].append(_lr(opt.param_groups[0]))
    rec.event("scheduler", frame)


def _construction_site(obj):
    return getattr(obj, "_ti_created", None)


# ---- data loaders --------------------------------------------------------------------


class LoaderIter:
    def __init__(self, rec: Recorder, loader: DataLoader, it, site: str) -> None:
        self.rec, self.loader, self.it, self.site, self.n = rec, loader, it, site, 0
        rec.loaders[site]["iterations"] += 1

    def __iter__(self):
        return self

    def __len__(self):
        return len(self.it)

    def __getattr__(self, name):
        return getattr(self.it, name)

    def __next__(self):
        rec = self.rec
        info = rec.loaders[self.site]
        if rec.fast_forward and rec.cfg.fast_forward and rec.status == "running":
            limit = 1 if info.get("role") == "train" else rec.cfg.eval_batches
            if self.n >= limit:
                raise StopIteration
        # the dataset's own indexing and collation are not the model's ops: skipping the
        # function mode there is most of the tracer's cost on small models
        with torch._C.DisableTorchFunction():
            batch = next(self.it)
        self.n += 1
        info["batches"] += 1
        rec.current_loader = self.site
        iv = rec.iv
        if iv.fixed_batch and rec.fixed_level == "loader" and self.site == rec.cfg.train_loader:
            if "loader_batch" not in rec.fixed:
                rec.fixed["loader_batch"] = map_tensors(batch, _clone)
            elif iv.holdout and not rec.fixed.get("holdout_taken"):
                rec.fixed["holdout_taken"] = True
                rec.fixed["holdout_pending_forward"] = True
            else:
                batch = map_tensors(rec.fixed["loader_batch"], _clone)
        for t in tensors_in(batch):
            t._ti_batch = True
        return batch


def _install_loader(rec: Recorder, undo: list) -> None:
    orig_init = DataLoader.__init__
    orig_iter = DataLoader.__iter__

    def init(self, *a, **k):
        orig_init(self, *a, **k)
        if rec.busy:
            return
        frame = _construction_frame(self)
        site = frame_key(frame)
        object.__setattr__(self, "_ti_site", site)
        if site not in rec.loaders:
            try:
                n = len(self.dataset)  # type: ignore[arg-type]
            except TypeError:
                n = None
            rec.loaders[site] = {
                "site": site,
                "frame": frame_dict(frame),
                "batch_size": self.batch_size,
                "shuffle": isinstance(self.sampler, RandomSampler),
                "sampler": type(self.sampler).__name__,
                "drop_last": bool(self.drop_last),
                "dataset_len": n,
                "num_workers": self.num_workers,
                "batches": 0,
                "iterations": 0,
                "role": None,
            }

    def iter_(self):
        site = getattr(self, "_ti_site", None)
        if site is None or rec.busy:
            return orig_iter(self)
        if (
            rec.iv.shuffle_loader
            and site == rec.cfg.train_loader
            and not isinstance(self.sampler, RandomSampler)
        ):
            shadow = DataLoader(
                self.dataset, batch_size=self.batch_size, shuffle=True,
                collate_fn=self.collate_fn, drop_last=self.drop_last,
            )  # fmt: skip
            object.__setattr__(shadow, "_ti_site", None)
            it = orig_iter(shadow)
        else:
            it = orig_iter(self)
        return LoaderIter(rec, self, it, site)

    DataLoader.__init__ = init
    DataLoader.__iter__ = iter_
    undo.append(lambda: setattr(DataLoader, "__init__", orig_init))
    undo.append(lambda: setattr(DataLoader, "__iter__", orig_iter))


# ---- device, compile, warnings --------------------------------------------------------


def _install_cuda_map(rec: Recorder, undo: list) -> None:
    """Hard-coded CUDA requests run on the CPU: GPU-only code still traces.

    Tensor.cuda()/to("cuda") return a copy, as on a GPU, so a leaf moved after
    `requires_grad=True` is a non-leaf here too (the bug stays visible).
    """
    if torch.cuda.is_available() or not rec.cfg.map_cuda:
        return
    T = torch.Tensor
    orig_tcuda, orig_tto = T.cuda, T.to
    orig_mcuda, orig_mto = nn.Module.cuda, nn.Module.to

    def is_cuda(d) -> bool:
        return (isinstance(d, str) and d.startswith("cuda")) or (
            isinstance(d, torch.device) and d.type == "cuda"
        )

    def t_cuda(self, device=None, non_blocking=False, memory_format=torch.preserve_format):
        return orig_tto(self, "cpu", copy=True)

    def t_to(self, *args, **kwargs):
        if args and is_cuda(args[0]):
            args = ("cpu", *args[1:])
            kwargs["copy"] = True
        if is_cuda(kwargs.get("device")):
            kwargs["device"] = "cpu"
            kwargs["copy"] = True
        return orig_tto(self, *args, **kwargs)

    def m_cuda(self, device=None):
        return self

    def m_to(self, *args, **kwargs):
        if args and is_cuda(args[0]):
            args = ("cpu", *args[1:])
        if is_cuda(kwargs.get("device")):
            kwargs["device"] = "cpu"
        return orig_mto(self, *args, **kwargs)

    T.cuda, T.to, nn.Module.cuda, nn.Module.to = t_cuda, t_to, m_cuda, m_to
    orig_sync = torch.cuda.synchronize
    torch.cuda.synchronize = lambda *a, **k: None
    undo.append(lambda: setattr(T, "cuda", orig_tcuda))
    undo.append(lambda: setattr(T, "to", orig_tto))
    undo.append(lambda: setattr(nn.Module, "cuda", orig_mcuda))
    undo.append(lambda: setattr(nn.Module, "to", orig_mto))
    undo.append(lambda: setattr(torch.cuda, "synchronize", orig_sync))


def _install_misc(rec: Recorder, undo: list) -> None:
    orig_compile = torch.compile

    def compile_(model=None, **kw):
        # compiled graphs would hide every op from the tracer
        return model if model is not None else (lambda m: m)

    torch.compile = compile_
    undo.append(lambda: setattr(torch, "compile", orig_compile))

    orig_show = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if len(rec.warnings) < 50:
            rec.warnings.append(
                {
                    "category": category.__name__,
                    "message": str(message)[:300],
                    "file": relpath(filename),
                    "line": lineno,
                }
            )
        return orig_show(message, category, filename, lineno, file, line)

    warnings.showwarning = show
    undo.append(lambda: setattr(warnings, "showwarning", orig_show))


def install(rec: Recorder) -> list:
    """Install every hook; returns the undo callables (run in reverse)."""
    rec.in_backward = False
    rec.step_mode_off = None
    rec.sched_init = 0
    rec.current_loader = None
    rec.current_forward = None
    rec.top_grad_enabled = True
    undo: list = []
    _install_cuda_map(rec, undo)
    _install_misc(rec, undo)
    _install_backward(rec, undo)
    _install_optimizer(rec, undo)
    if rec.cfg.trace:
        _install_module_call(rec, undo)
        _install_module_init(rec, undo)
        _install_clip(rec, undo)
        _install_scheduler(rec, undo)
        _install_loader(rec, undo)
    return undo


_ = (norm, summarize)  # re-exported helpers used by probes
