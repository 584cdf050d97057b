"""`nn.Module.__call__`: top-level model forwards (inputs, train/eval mode, grad mode,
the phase of each forward), submodule calls (BatchNorm batch sizes, grad disabled inside
a training forward, parameters that executed) and the model's outputs.

The first module with parameters called outside any other module is a "model"; modules
it calls are "sub"; loss modules and parameter-free modules called from the loop are
"other".
"""

from __future__ import annotations

import torch
from torch import nn

from .. import (
    difference_mask,
    indexed_rows,
    read_positions,
    shadow_eval,
    target_order,
    term_marks,
    train_rows,
)
from ..interventions import batch, reference_model, training
from ..mode import under_transform
from ..probes import forward_probes
from ..recorder import MAX_EVENTS, Recorder
from ..tensors import (
    batch_copy,
    frame_dict,
    frame_key,
    joint_rows,
    map_tensors,
    repo_caller,
    repo_frame,
    row_fingerprints,
    summarize,
    tensors_in,
)
from .guard import Undo, guarded
from .module_facts import (
    init_stats,
    mode_dependent,
    other_mode_submodules,
    scan_tensor_attributes,
)


def _is_loss(m: nn.Module) -> bool:
    return isinstance(m, nn.modules.loss._Loss)


def _has_params(m: nn.Module) -> bool:
    return next(m.parameters(), None) is not None


def install(rec: Recorder, undo: Undo) -> None:
    orig_call = nn.Module.__call__

    def call(self, *args, **kwargs):
        if rec.busy or rec.status != "running" or under_transform():
            return orig_call(self, *args, **kwargs)  # the program's own call
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
            out = orig_call(self, *args, **kwargs)  # the program's own call
        finally:
            rec.stack.pop()
        if role == "model":
            out = reference_model.replaced_output(rec, args, kwargs, out)
            _model_output(rec, self, out, args, kwargs)
        return out

    nn.Module.__call__ = call
    undo.append(lambda: setattr(nn.Module, "__call__", orig_call))


# no-grad forwards kept undecided at a time, beyond which the oldest is an evaluation
PENDING_NOGRAD = 16


@guarded
def _model_forward(rec: Recorder, module: nn.Module, args: tuple, kwargs: dict):
    """Returns the (args, kwargs) the model runs with when an intervention replaced
    them, else None."""
    rec.check_budget()
    grad = torch.is_grad_enabled()
    if not grad:
        rec.last_nograd_step = rec.n_steps + rec.counts["hand_update"]
    _first_sight(rec, module)
    training.force_module_mode(rec, module, grad)
    # the rows the program passed mark its batch even when a replayed batch runs instead
    difference_mask.fed(rec, tensors_in(args) or tensors_in(kwargs))
    args, kwargs, replaced = batch.fixed_forward(rec, module, args, kwargs, grad)
    tensors = tensors_in(args) or tensors_in(kwargs)
    _resolve_feeders(rec, tensors, grad)
    if grad and rec.detailed:
        rec.track_module_params(module, executed=True)
        if id(module) not in rec.executed:
            rec.executed[id(module)] = module
            scan_tensor_attributes(rec, module)
    args, kwargs, tensors, standardized = batch.standardized_inputs(rec, args, kwargs, tensors)
    args, kwargs, aligned = batch.aligned_eval_inputs(rec, args, kwargs, tensors, grad)
    args, kwargs, rows_aligned = batch.aligned_eval_rows(rec, args, kwargs, tensors, grad)
    aligned = aligned or rows_aligned
    for t in tensors:
        t._ti_batch = True
        t._ti_fed = True  # this very tensor is a model's input (an autoencoder's target)
    train_rows.at_forward(rec, tensors, not grad or not module.training)
    if grad and tensors and rec.detailed:
        target_order.fed(rec, tensors[0])
        target_order.received(rec, tensors, (module, args, kwargs))
    if tensors and tensors[0].dim() >= 1:
        rec.batch_size = int(tensors[0].shape[0])
        # the feature matrix a target is compared with: the first 2-D float input (a
        # model fed integer codes beside its dense features), else the first input
        dense = [t for t in tensors if t.is_floating_point() and t.dim() == 2]
        rec.last_input = dense[0] if dense else tensors[0]
    _record_forward(rec, module, tensors, grad)
    if grad and rec.first_batch is None and rec.cfg.probe_code:
        rec.first_batch = (map_tensors(args, batch_copy), map_tensors(kwargs, batch_copy))
        rec.first_model = module  # a probe's `model` is the one these inputs went to
    if rec.cfg.probes and grad and tensors and _probe_due(rec):
        rec.probes["forward"] = forward_probes(rec, module, args, kwargs)
    return (args, kwargs) if replaced or standardized or aligned else None


# an output this small at every sample is exactly zero: a readout that starts at zero
ZERO_OUTPUT = 1e-11
REPROBE_STEP = 10  # training steps after which a zero output is probed once more


def _probe_due(rec: Recorder) -> bool:
    """The first training forward is probed; when its output was exactly zero (a readout
    initialized at zero tells nothing about what the input does), one forward again
    once training has moved the weights."""
    first = rec.probes.get("forward")
    if first is None:
        return True
    if rec.reprobed or rec.n_steps < REPROBE_STEP or first.get("status") != "ok":
        return False
    if first.get("output_scale", 1.0) > ZERO_OUTPUT:
        return False
    rec.reprobed = True
    return True


def _first_sight(rec: Recorder, module: nn.Module) -> None:
    """A model called for the first time: its parameters, and their initialization."""
    mid = id(module)
    if mid in rec.models:
        return
    rec.models[mid] = module
    rec.model_frames[mid] = getattr(module, "_ti_created", None)
    rec.track_module_params(module, executed=False)
    if not rec.init_stats:
        with rec.quiet():
            rec.init_stats = init_stats(module)
            rec.init_module = module


def _record_forward(rec: Recorder, module: nn.Module, tensors: list, grad: bool) -> None:
    rec.between_forward_and_backward = grad
    rec.activation_calls.clear()
    frame = repo_frame()
    rec.event("forward", frame)
    rec.last_grad_forward = (
        (bool(module.training), rec.n_steps, frame, rec.mode_off.get(id(module))) if grad else None
    )
    record = None
    # no-grad forwards (evaluation, frozen feature extractors) are recorded beyond the
    # detailed steps: the evaluation phase usually comes last
    if rec.detailed or (not grad and len(rec.forwards) < 5 * MAX_EVENTS):
        with rec.quiet():
            record = {
                "index": rec.counts["forward"] - 1,
                "model": type(module).__name__,
                "frame": frame_dict(frame),
                # the program's line that called the function holding the forward (an
                # evaluate() called once after model.eval() and once without it)
                "caller": frame_dict(repo_caller(frame)) if frame and not grad else None,
                # an evaluation in train mode right after the program switched another
                # model to eval mode: that line meant this model (ema.module beside model)
                "other_switched": frame_dict(_other_switched(rec, module))
                if not grad and module.training
                else None,
                # an evaluation in train mode right after the program switched this model
                # to train mode, with no training step between (a helper meant to set eval)
                "train_switched": frame_dict(_train_switched(rec, module))
                if not grad and module.training
                else None,
                "training": bool(module.training),
                "grad_enabled": grad,
                "phase": None,
                "step": rec.n_steps,
                "inputs": [summarize(t, values=False) for t in tensors[:4]],
                "loader": rec.current_loader,
                # the forward whose output this one receives (a discriminator fed samples)
                "fed_by": getattr(tensors[0], "_ti_fw", None) if tensors else None,
                "fed_grad": bool(tensors and tensors[0].requires_grad),
                "other_mode": other_mode_submodules(module),
                "mode_layers": mode_dependent(rec, module),
                "_module": id(module),
            }
            rows = joint_rows(tensors)
            fps = row_fingerprints(rows) if rows is not None else []
            # kept until the phase is known (Recorder.resolve_phase)
            record["_batch"] = ([t.detach() for t in tensors[:4]], fps)
            with rec.quiet():
                origin = train_rows.origin_rows(tensors[0]) if grad and tensors else None
            if origin is not None:
                # the rows this batch was made from, before the program transformed them
                made_from = joint_rows([origin, *tensors[1:]])
                record["_origin_fps"] = row_fingerprints(made_from) if made_from is not None else []
            # the tensors themselves, not their ids: an id is reused once a tensor is freed
            record["_inputs"] = list(tensors)
            rec.forwards.append(record)
            rec.fw_by_index[record["index"]] = record
    rec.current_forward = record


def _train_switched(rec: Recorder, module: nn.Module):
    """The program's line that switched this module to train mode since the last backward."""
    on = rec.mode_on.get(id(module))
    return on[0] if on is not None and on[1] == rec.counts["backward"] else None


def _other_switched(rec: Recorder, module: nn.Module):
    """The program's line that last switched a module to eval mode, when that module is
    neither this one nor one of its parts."""
    mine = {id(m) for m in module.modules()}
    others = [frame for mid, frame in rec.mode_off.items() if mid not in mine]
    return others[-1] if others else None


def _resolve_feeders(rec: Recorder, tensors: list[torch.Tensor], grad: bool) -> None:
    """Decide the phase of earlier no-grad forwards from what this forward consumes.

    A frozen feature extractor (or a teacher) runs under no_grad inside a training
    iteration: its output, or its very input tensors, feed this training forward. One
    whose output becomes a training loss's target (pseudo-labels, a teacher's soft
    targets, a target network's projection) is decided where that happens; one another
    no-grad forward consumes (a target encoder feeding a target projector) follows that
    forward's phase; any other is an evaluation, decided at the next backward (the oldest
    beyond PENDING_NOGRAD, earlier: an evaluation loop runs many in a row).
    """
    if not rec.pending_nograd:
        return
    consumed = {getattr(t, "_ti_fw", None) for t in tensors}
    fed = {
        r["index"]
        for r in rec.pending_nograd
        if r["index"] in consumed or any(t is x for t in tensors for x in r.get("_inputs", ()))
    }
    if grad:
        rec.resolve_nograd(fed, "train")
        return
    for record in rec.pending_nograd:
        if record["index"] in fed:
            record["_via"] = rec.counts["forward"]  # this forward, about to be counted
    while len(rec.pending_nograd) > PENDING_NOGRAD:
        rec.resolve_phase(rec.pending_nograd.pop(0), "eval")


@guarded
def _model_output(rec: Recorder, module: nn.Module, output, args: tuple, kwargs: dict) -> None:
    outs = tensors_in(output)
    for t in outs:
        t._ti_out = True
    record = rec.current_forward
    rec.current_forward = None
    if not rec.stack:  # a top-level model's output
        rec.last_output_eval = not torch.is_grad_enabled() or not module.training
        shadow_eval.evaluated(rec, outs)
        read_positions.evaluated(rec.last_output_eval, args, kwargs, output)
    if record is None:
        return
    term_marks.nograd_forward(rec, outs, record.get("frame"), module)
    record["outputs"] = [list(t.shape) for t in outs[:4]]
    src = indexed_rows.source_of(record.get("_inputs") or [])
    for t in outs:
        t._ti_fw = record["index"]
        t._ti_src = src
    if record.get("phase") is not None:
        return
    if not torch.is_grad_enabled():
        rec.pending_nograd.append(record)
        return
    gfn = next((t.grad_fn for t in outs if t.grad_fn is not None), None)
    if gfn is not None and rec.detailed:
        rec.pending.append((record, gfn))
    else:
        rec.resolve_phase(
            record, "train" if module.training and torch.is_grad_enabled() else "eval"
        )


NORMALIZATION = (
    nn.modules.batchnorm._BatchNorm,
    nn.LayerNorm,
    nn.GroupNorm,
    nn.modules.instancenorm._InstanceNorm,
)


@guarded
def _sub_forward(rec: Recorder, module: nn.Module, args: tuple) -> None:
    grad = torch.is_grad_enabled()
    if (
        rec.input_normalizer is None
        and isinstance(module, NORMALIZATION)
        and args
        and getattr(args[0], "_ti_batch", False)
    ):
        # the batch itself goes through a normalization layer: the model scales its inputs
        rec.input_normalizer = {
            "module": type(module).__name__,
            "frame": frame_dict(getattr(module, "_ti_created", None)),
        }
    if not grad and rec.top_grad_enabled and rec.detailed:
        _grad_disabled_inside(rec, module)
    if (
        isinstance(module, nn.modules.batchnorm._BatchNorm)
        and module.training
        and grad  # a forward that trains (an evaluation left in train mode is another defect)
        and args
        and isinstance(args[0], torch.Tensor)
    ):
        _batchnorm_batch(rec, module, args[0])
    if not (grad and rec.detailed):
        return
    mid = id(module)
    if mid in rec.executed:
        return
    rec.executed[mid] = module
    rec.track_module_params(module, executed=True)
    scan_tensor_attributes(rec, module)


def _grad_disabled_inside(rec: Recorder, module: nn.Module) -> None:
    """A submodule called with grad disabled inside a training forward."""
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
    for p in module._parameters.values():  # they ran in the training forward, gradless
        if p is not None:
            rec.param(p).ran_without_grad = True


def _batchnorm_batch(rec: Recorder, module: nn.Module, x: torch.Tensor) -> None:
    """The smallest batch (and values per channel) a training-mode BatchNorm saw."""
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
