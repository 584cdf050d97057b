"""`Tensor.backward` and `torch.autograd.backward`: the loss curve, call order, and in
the detailed steps the graph walk from the loss (reachable parameters, the phase of the
forwards and loss calls it reaches), gradients left over from earlier backwards, and
gradient statistics after the backward."""

from __future__ import annotations

import math
import weakref

import torch

from .. import difference_mask, term_marks
from ..interventions import batch, training
from ..params import grad_stats
from ..recorder import MAX_CURVE, MAX_EVENTS, Recorder
from ..tensors import frame_dict, repo_frame
from ..user_probe import probe_and_stop
from .guard import Undo, guarded

MAX_GRAPH_NODES = 200_000
MAX_LEAVES_SEEN_ONCE = 10_000


def install(rec: Recorder, undo: Undo) -> None:
    orig = torch.Tensor.backward
    orig_fn = torch.autograd.backward

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        if rec.busy or rec.in_backward or rec.status != "running":
            return orig(
                self, gradient, retain_graph, create_graph, inputs
            )  # the program's own call
        rec.in_backward = True
        try:
            _before_backward(rec, self)
            out = orig(self, gradient, retain_graph, create_graph, inputs)  # the program's own call
        finally:
            rec.in_backward = False
        _after_backward(rec)
        rec.check_budget()
        return out

    def autograd_backward(tensors, *a, **k):
        if rec.busy or rec.in_backward or rec.status != "running":
            return orig_fn(tensors, *a, **k)  # the program's own call
        first = tensors if isinstance(tensors, torch.Tensor) else next(iter(tensors), None)
        rec.in_backward = True
        try:
            if isinstance(first, torch.Tensor):
                _before_backward(rec, first)
            out = orig_fn(tensors, *a, **k)  # the program's own call
        finally:
            rec.in_backward = False
        _after_backward(rec)
        rec.check_budget()
        return out

    torch.Tensor.backward = backward
    torch.autograd.backward = autograd_backward
    undo.append(lambda: setattr(torch.Tensor, "backward", orig))
    undo.append(lambda: setattr(torch.autograd, "backward", orig_fn))


def walk_graph(root) -> tuple[set[int], set, int]:
    """Leaves (AccumulateGrad variables) and nodes reachable from a grad_fn."""
    leaves, nodes, n, _ = walk_graph_full(root)
    return leaves, nodes, n


def walk_graph_full(root) -> tuple[set[int], set, int, dict[int, tuple]]:
    """Also: for each leaf, (the leaf tensor, the node that consumes it)."""
    leaves: set[int] = set()
    nodes: set = set()
    found: dict[int, tuple] = {}
    stack = [root] if root is not None else []
    while stack and len(nodes) < MAX_GRAPH_NODES:
        node = stack.pop()
        if node in nodes:
            continue
        nodes.add(node)
        for nxt, _ in getattr(node, "next_functions", ()):
            if nxt is None:
                continue
            var = getattr(nxt, "variable", None)
            if var is not None:
                leaves.add(id(var))
                found.setdefault(id(var), (var, node))
            if nxt not in nodes:
                stack.append(nxt)
    return leaves, nodes, len(nodes), found


@guarded
def _before_backward(rec: Recorder, loss: torch.Tensor) -> None:
    frame = repo_frame()
    made = getattr(loss, "_ti_made", None)
    if rec.loss_maker is None and made and frame and made[2] != frame[2]:
        rec.loss_maker = made  # the loss came from a function of its own: a probe's loss_fn
    value = _count_backward(rec, loss, frame)
    _count_train_mode(rec)
    rec.between_forward_and_backward = False
    rec.class_site_calls.clear()
    rec.cut_values.clear()  # a cut number belongs to the step it was cut in
    difference_mask.backward(rec)  # rows cut by hand belong to their iteration
    training.before_backward(rec)
    for record in rec.pending_nograd:
        rec.resolve_phase(record, "eval")
    rec.pending_nograd.clear()
    if not rec.detailed:
        for record, _ in rec.pending:
            rec.resolve_phase(record, "train")
        rec.pending.clear()
        if not rec.optimizers:  # updates by hand are counted over the whole run
            with rec.quiet():
                _hand_update(rec)
        return
    with rec.quiet():
        _hand_update(rec)
        left_over = _left_over_grads(rec)
        leaves, nodes, n_nodes, found = walk_graph_full(loss.grad_fn)
        _register_leaves(rec, found)
        unreachable = _count_reachable(rec, leaves)
        nonparam = len([lid for lid in leaves if lid not in rec.params])
        _resolve_by_graph(rec, loss, nodes)
        if len(rec.backwards) < MAX_EVENTS:
            rec.backwards.append(
                {
                    "index": rec.counts["backward"] - 1,  # every backward, closures included
                    "step": rec.n_steps,
                    # optimizer steps and hand-written updates before this backward
                    "updates_before": rec.n_steps + rec.counts["hand_update"],
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
                    "in_step": rec.in_step,
                }
            )


def _register_leaves(rec: Recorder, found: dict[int, tuple]) -> None:
    """Leaves the loss reaches that require grad are parameters, in a module or not (a
    model of plain tensors and a function), once they persist: a plain leaf counts from
    the second backward that reaches the same tensor (one made afresh in every iteration
    is not a parameter). A leaf consumed by the very node object that consumed it at the
    previous backward is fed through a copy made once."""
    for var, consumer in found.values():
        if not getattr(var, "requires_grad", False) or getattr(var, "_ti_batch", False):
            continue
        known = rec.params.get(id(var))
        if known is None or known.ref is not var:
            seen = rec.leaves_seen_once.pop(id(var), None)
            if seen is None or seen[0]() is not var:
                _remember_once(rec, var, consumer)
                continue
            known = rec.param(var)
            known.consumer = seen[1]
        r = known
        r.reached = True
        if r.consumer is not None and r.consumer is consumer and not _accumulates(consumer):
            r.stale_steps += 1
            site = rec.copy_sites.get(id(consumer))
            if site is not None and site[0] is consumer and r.stale_frame is None:
                r.stale_frame = site[1]
        r.consumer = consumer


def _remember_once(rec: Recorder, var: torch.Tensor, consumer) -> None:
    try:
        ref = weakref.ref(var)
    except TypeError:  # not weak-referenceable: track it at once, as before
        rec.param(var).reached = True
        return
    if len(rec.leaves_seen_once) >= MAX_LEAVES_SEEN_ONCE:
        # leaves that died are transient; dropping them bounds the holding area
        for lid in [k for k, (r, _) in rec.leaves_seen_once.items() if r() is None]:
            del rec.leaves_seen_once[lid]
            rec.transient_leaves += 1
        if len(rec.leaves_seen_once) >= MAX_LEAVES_SEEN_ONCE:
            return
    rec.leaves_seen_once[id(var)] = (ref, consumer)


def _accumulates(node) -> bool:
    return type(node).__name__ == "AccumulateGrad"


def _count_backward(rec: Recorder, loss: torch.Tensor, frame) -> float:
    """The loss curve (every backward'ed value) and the call order."""
    with rec.quiet():
        value = float(loss.detach().float().mean()) if loss.numel() else float("nan")
    if len(rec.losses) < MAX_CURVE:
        rec.losses.append(value)
    rec.last_backward_value = value
    source = getattr(loss, "_ti_scalar", None)  # the line whose op made the loss
    if source is not None and source not in rec.loss_sources and len(rec.loss_sources) < 16:
        rec.loss_sources.append(source)
    if source is not None and getattr(loss, "_ti_logp", False):
        if source not in rec.log_prob_losses and len(rec.log_prob_losses) < 16:
            rec.log_prob_losses.append(source)  # a log-likelihood backward'ed as it is
    term_marks.at_backward(rec, loss)  # terms that carry no gradient
    rec.event("backward", frame)
    rec.backward_since_step += 1
    for k in rec.optimizers:
        rec.own_backwards[k] = rec.own_backwards.get(k, 0) + 1
    rec.own_zeroed.clear()
    return value


def _count_train_mode(rec: Recorder) -> None:
    """module.training of the forward this backward follows, for the whole run."""
    if rec.last_grad_forward is None:
        return
    is_training, step, fframe, switched = rec.last_grad_forward
    counts = rec.train_mode_counts
    counts["train" if is_training else "eval"] += 1
    if not is_training and counts["first_eval"] is None:
        counts["first_eval"] = {
            "step": step,
            "frame": frame_dict(fframe),
            "switched_at": frame_dict(switched),
        }
    rec.last_grad_forward = None


def _hand_update(rec: Recorder) -> None:
    """The parameters changed with no optimizer step since the last backward: a
    hand-written update (`p -= lr * p.grad`) ended the previous iteration."""
    if _update_interval(rec) and rec.backward_since_step > 1:
        rec.counts["hand_update"] += 1
        rec.backward_since_step = 1
        rec.zero_grad_since_step = False


def _update_interval(rec: Recorder) -> bool:
    """Whether the parameters changed since the previous backward (updates by any means);
    only parameters present at both backwards are compared."""
    sums: dict[int, float] = {}
    for pid, r in rec.params.items():
        if r.executed or r.module_class or r.reached:
            sums[pid] = float(r.ref.detach().double().sum())
    changed = False
    if rec.param_checksum is not None:
        common = sums.keys() & rec.param_checksum.keys()
        if common:
            rec.update_intervals["observed"] += 1
            changed = any(_differs(sums[k], rec.param_checksum[k]) for k in common)
            if changed:
                rec.update_intervals["changed"] += 1
            elif not all(math.isfinite(sums[k]) for k in common):
                # a non-finite parameter cannot be seen to change
                rec.update_intervals["nonfinite"] += 1
    rec.param_checksum = sums
    return changed


def _differs(a: float, b: float) -> bool:
    return a != b and not (math.isnan(a) and math.isnan(b))


def _left_over_grads(rec: Recorder) -> list[int]:
    """At the first backward of an iteration: parameters whose .grad is still non-zero."""
    left_over = []
    if rec.backward_since_step == 1:
        for pid, r in rec.params.items():
            g = r.ref.grad
            if g is not None and bool((g != 0).any()):
                left_over.append(pid)
                r.grad_before += 1
    return left_over


def _count_reachable(rec: Recorder, leaves: set[int]) -> list[int]:
    """Parameters that ran in a training forward: reachable from the loss or not."""
    unreachable = []
    for pid, r in rec.params.items():
        if r.executed and r.ref.requires_grad:
            r.n_walks += 1
            if pid in leaves:
                r.n_reachable += 1
            else:
                unreachable.append(pid)
    return unreachable


def _resolve_by_graph(rec: Recorder, loss: torch.Tensor, nodes: set) -> None:
    """Forwards and loss calls whose output the loss reaches were training; so was the
    loader that fed them."""
    for record, gfn in rec.pending:
        if gfn in nodes:
            rec.resolve_phase(record, "train")
            if record.get("loader"):
                info = rec.loaders.get(record["loader"])
                if info is not None:
                    info["role"] = "train"
        elif loss.grad_fn is None or record.get("training"):
            # a rebuilt/detached loss reaches nothing, and a train-mode forward whose
            # output the loss does not reach is a cut graph: both are training
            rec.resolve_phase(record, "train")
        else:
            rec.resolve_phase(record, "eval")  # e.g. a validation pass without no_grad
    rec.pending = []


@guarded
def _after_backward(rec: Recorder) -> None:
    if rec.detailed:
        with rec.quiet():
            for r in rec.params.values():
                grad_stats(r)
    training.after_backward(rec)
    batch.holdout_after_backward(rec)
    if (
        rec.cfg.probe_code
        and rec.probe_result is None
        and not rec.optimizers
        and rec.counts["backward"] >= 1
    ):
        probe_and_stop(rec)
