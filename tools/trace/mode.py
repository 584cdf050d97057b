"""A TorchFunctionMode that sees every torch call of the traced program.

It records what the protocol asks about ops: silent broadcasting, reductions and
softmax over the batch dimension (ops.py), graph cuts (detach, .data, .item, numpy
round trips, torch.tensor re-wraps), loss calls with their operands (loss_calls.py),
and provenance tags (softmax/sigmoid/log_softmax/relu/tanh) carried through view-like
ops to the loss. The op-level interventions (strip a probability op, swap loss
arguments, keep the graph, fix a broadcast, fixed targets, lift a clamp) are applied
through the seams in interventions/loss.py and clamps.py. It also maps CUDA to the CPU.

Invariants: the handler is popped from the mode stack while it runs, so torch
calls it makes are not re-entered; tracer code elsewhere sets `recorder.busy`.
"""

from __future__ import annotations

import torch
from torch.overrides import TorchFunctionMode

from . import (
    clamps,
    difference_mask,
    eval_matches,
    farthest,
    gather_axis,
    indexed_rows,
    ops,
    provenance,
    read_positions,
    softmax_axis,
    target_order,
    term_marks,
    train_rows,
)
from .interventions import reentry
from .interventions.loss import kept_graph, renormalizing
from .loss_calls import SUBTRACTIONS, difference_target, loss_call, weighted_loss
from .ops import BINARY, DIM_OPS, DROPOUTS, GRAPH_CUTS, LOSSES, PASSTHROUGH, PROB_OPS, tag_of
from .recorder import Recorder
from .tensors import frame_dict, frame_key, repo_frame


def _takes_cut(args) -> bool:
    return any(isinstance(a, reentry.CutNumber) for a in args[:3])


def _cuda_device(d) -> bool:
    if isinstance(d, str):
        return d.startswith("cuda")
    if isinstance(d, torch.device):
        return d.type == "cuda"
    return False


def _adds_unit_axis(name: str, a0: torch.Tensor, out: torch.Tensor, args) -> bool:
    """`x.unsqueeze(1)`, `x[:, None]`, `x.view(b, 1, d)`: the output has more axes of size
    one than the input, written by the program to line an operand up for broadcasting."""
    if name in ("unsqueeze", "unsqueeze_"):
        return True
    if name == "__getitem__" and len(args) > 1:
        index = args[1] if isinstance(args[1], tuple) else (args[1],)
        return any(i is None for i in index)
    if name in ("view", "reshape") and out.dim() > a0.dim():
        return sum(d == 1 for d in out.shape) > sum(d == 1 for d in a0.shape)
    return False


def _is_bool_mask(index, src) -> bool:
    return (
        isinstance(index, torch.Tensor)
        and index.dtype == torch.bool
        and isinstance(src, torch.Tensor)
        and src.dim() >= 1
    )


def _few_values(t: torch.Tensor) -> list[float] | None:
    """Up to 16 values of a tensor of whole numbers (token ids, classes), else None."""
    if t.numel() > 100_000 or (t.is_floating_point() and not bool((t == t.round()).all())):
        return None
    return torch.unique(t)[:16].tolist()


_LEVEL = getattr(getattr(torch._C, "_functorch", None), "maybe_current_level", None)


def under_transform() -> bool:
    """Inside a torch.func transform (vmap, grad): tensors are wrapped per level and any
    data-dependent read (.item(), float(), a comparison) raises, so the tracer only
    passes ops through. The transform's own calls are counted where they are entered."""
    return _LEVEL is not None and _LEVEL() is not None


def _library(module) -> bool:
    return module is not None and type(module).__module__.startswith("torch.nn")


# ops that copy a tensor: on a trainable leaf, the copy is a non-leaf the updates skip
COPIES = {"to", "double", "float", "half", "type", "clone", "cpu", "cuda", "contiguous", "type_as"}


class TraceMode(TorchFunctionMode):
    def __init__(self, rec: Recorder) -> None:
        super().__init__()
        self.rec = rec
        # interventions that act on ops before the loss need every training op
        self.op_interventions = rec.iv.act_on_ops()
        # site of the last broadcast that grew an operand, until a binary op's output carries it
        self._grew: str | None = None

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        rec = self.rec
        if rec.cfg.map_cuda and "device" in kwargs and _cuda_device(kwargs["device"]):
            kwargs = {**kwargs, "device": "cpu"}
        if rec.busy or not rec.cfg.trace or under_transform():
            return func(*args, **kwargs)  # the program's own call
        provenance.read(rec, args)  # a forward's output read by the program (not discarded)
        name = getattr(func, "__name__", "")
        if name == "softmax" and rec.iv.softmax_dim_at:
            args, kwargs = softmax_axis.moved(rec, args, kwargs)
        if name == "__get__":
            prop = getattr(getattr(func, "__self__", None), "__name__", "")
            if prop == "data" and args and isinstance(args[0], torch.Tensor):
                return self._graph_cut("data", func, args, kwargs)
            return func(*args, **kwargs)  # the program's own call
        if name in LOSSES:
            return loss_call(rec, name, func, args, kwargs)
        if name in clamps.CLAMPS and clamps.lifted(rec, args):
            return args[0]  # no_clamp: a bound on the gradient's path lifted
        if name in SUBTRACTIONS:
            args = difference_target(rec, name, args)
        # training ops are examined in the detailed steps (a new training phase opens new
        # ones); evaluation ops, where metric bugs live, always, and after the step budget
        # (fast-forward to the program's final evaluation) up to a bounded number of ops
        if (rec.fast_forward and not rec.detailed and not rec.final_eval_op()) or (
            not rec.detailed and not self.op_interventions and not rec.evaluating()
        ):
            out = func(*args, **kwargs)  # the program's own call
            difference_mask.cut(name, args, out)
            ops.before_training(rec, name, args, out)
            provenance.carry_prediction(name, args, out)
            eval_matches.beyond_budget(rec, name, args, out)
            if rec.pending_nograd:  # what a no-grad forward's output becomes decides its phase
                provenance.carry(args, out)
                provenance.feeds_training(rec, args, out)
            return out
        if name in GRAPH_CUTS:
            return self._graph_cut(name, func, args, kwargs)
        if name == "tensor" and args and isinstance(args[0], torch.Tensor):
            return self._graph_cut("tensor_rewrap", func, args, kwargs)
        self._before_op(name, args, kwargs)
        if name == "log_softmax" and args:
            ops.renormalized(rec, args[0])
            args = renormalizing(rec, args)
        if name in gather_axis.GATHERS:
            args, kwargs = gather_axis.checked(rec, name, args, kwargs)
        if name in softmax_axis.PRODUCTS_ELEMENTWISE:
            softmax_axis.soft_target(rec, name, args)
        out = None
        if torch.is_grad_enabled() and (rec.cut_values or _takes_cut(args)):
            out = reentry.rejoined(rec, name, func, args, kwargs)
        if out is None:
            out = func(*args, **kwargs)  # the program's own call
        if isinstance(out, torch.Tensor):
            ops.before_training(rec, name, args, out)
            out = self._reshape_as_permute(name, args, out)
            eval_matches.classes_of(name, args, kwargs, out)
            eval_matches.softmax_classes(rec, name, args, kwargs)
            self._after_op(name, func, args, kwargs, out)
            if rec.pending_nograd:
                provenance.feeds_training(rec, args, out)
        elif isinstance(out, tuple):  # `probs.max(dim=1)`: computed from that forward's output
            provenance.carry(args, out)
            eval_matches.index_made(name, args, out)
            farthest.after_op(rec, name, args, kwargs, out)
        return out

    def _reshape_as_permute(self, name: str, args, out: torch.Tensor) -> torch.Tensor:
        """reshape_as_permute: inside the training forward, a reshape to a reordering of
        the input's sizes returns the permuted tensor instead."""
        rec = self.rec
        if not (
            rec.iv.reshape_as_permute
            and name in ("view", "reshape")
            and torch.is_grad_enabled()
            and args
            and isinstance(args[0], torch.Tensor)
            and (
                self._shapes_prediction(args[0])
                or (not rec.counts["forward"] and args[0].dim() >= 3)  # ops.data_reshape
            )
        ):
            return out
        perm = ops.permutation_of(args[0].shape, out.shape)
        if perm is None or min(args[0].shape) < 2:
            return out
        with rec.quiet():
            return args[0].permute(perm).reshape(out.shape)

    def _shapes_prediction(self, x: torch.Tensor) -> bool:
        """Inside the training forward, or between it and the backward on what the model
        predicted (`logits.log_softmax(-1).reshape(T, B, C)` for a loss that wants another
        layout)."""
        rec = self.rec
        return rec.depth > 0 or (
            rec.between_forward_and_backward
            and bool(getattr(x, "_ti_pred", False) or getattr(x, "_ti_out", False))
        )

    def _before_op(self, name: str, args, kwargs) -> None:
        rec = self.rec
        if name == "from_numpy" and rec.depth > 0:
            rec.op_site("from_numpy", repo_frame(), in_forward=True)
        if name in BINARY and len(args) >= 2:
            grew = ops.broadcast(rec, name, args)
            if grew is not None and any(ops.on_gradient_path(a) for a in args[:2]):
                # a broadcast among data alone (a padding mask `pos < lengths`, a grid) makes
                # data: only one that grows a tensor on the gradient's path marks the loss
                self._grew = grew
        if name in DIM_OPS:
            ops.reduction_dim(rec, name, args, kwargs)
        if name == "scaled_dot_product_attention":
            ops.attention(rec, args, kwargs)
        elif name in DROPOUTS:
            ops.functional_dropout(rec, name, args, kwargs)

    def _after_op(self, name: str, func, args, kwargs, out: torch.Tensor) -> None:
        """Tags the output inherits from the first operand (provenance, batch, model
        output, mask, broadcast)."""
        a0 = args[0] if args else None
        if name in ops.FACTORIES:
            out._ti_made = True
        indexed_rows.born(self.rec, name, a0, out)
        difference_mask.cut(name, args, out)
        difference_mask.difference(self.rec, name, args, out)
        ops.log_prob_made(name, args, out)
        softmax_axis.after_op(self.rec, name, args, kwargs, out)
        farthest.after_op(self.rec, name, args, kwargs, out)
        eval_matches.after_op(self.rec, name, args, out)
        term_marks.after_op(self.rec, name, args, out)
        if (
            name.endswith("_")
            and isinstance(a0, torch.nn.Parameter)
            and self.rec.n_steps == 0
            and len(self.rec.init_sites) < 10_000
        ):
            # the last in-place write before training: where the weight got its start
            self.rec.init_sites[id(a0)] = repo_frame()
        parts = provenance.value_operands(name, args)
        if any(
            isinstance(a, torch.Tensor)
            and (getattr(a, "_ti_out", False) or getattr(a, "_ti_pred", False))
            for a in parts
        ):
            out._ti_pred = True  # computed from a model's output (a prediction, a score)
        src = provenance.derived_from(args)
        if src is not None:
            out._ti_from_fw = src  # computed from a forward's output (pseudo-labels, soft targets)
        if name in PROB_OPS:
            self._tag_prob(PROB_OPS[name], out, a0, args, kwargs)
        elif name in PASSTHROUGH:
            self._passthrough(name, func, args, kwargs, a0, out)
        if self.rec.depth == 0 and hasattr(a0, "_ti_row_source"):
            train_rows.keeps_rows(name, a0, args, out)
        # the operand on the gradient's path speaks first: a broadcast that made the data
        # (a grid minus centres, before training) must not hide one inside the loss
        tagged = [a for a in args[:2] if isinstance(a, torch.Tensor) and hasattr(a, "_ti_bcast")]
        tagged.sort(key=lambda a: not a.requires_grad)
        bc = tagged[0]._ti_bcast if tagged else None
        if bc is not None:
            out._ti_bcast = bc
        if name in BINARY and self._grew:
            out._ti_bcast = self._grew
            self._grew = None
        if name in ("mul", "__mul__", "__rmul__") and len(args) >= 2:
            with self.rec.quiet():
                weighted_loss(self.rec, args, out)
        rec = self.rec
        if out.dtype == torch.bool:
            out._ti_boolish = True
        if (
            name in ("mul", "__mul__", "__rmul__")
            and len(args) >= 2
            and rec.detailed
            and (rec.depth > 0 or rec.between_forward_and_backward)
        ):
            with rec.quiet():
                ops.mask_product(rec, args)
        # a scalar, or a per-sample vector outside any forward (`rec + beta * kl` per
        # sample, reduced to the loss after the sum)
        per_sample = out.dim() == 1 and rec.depth == 0
        if (
            (out.dim() == 0 or per_sample)
            and out.requires_grad
            and rec.detailed
            and rec.status == "running"
        ):
            if name in ops.TERM_SUMS and len(args) >= 2:
                with rec.quiet():
                    ops.loss_term(rec, name, args, out)
            ops.scalar_made(rec, name, args, out)

    def _passthrough(self, name: str, func, args, kwargs, a0, out: torch.Tensor) -> None:
        """A view-like op: the output is the same data, so it keeps the input's tags."""
        rec = self.rec
        if (
            name in COPIES
            and isinstance(a0, torch.Tensor)
            and a0.is_leaf
            and a0.requires_grad
            and out.grad_fn is not None
            and len(rec.copy_sites) < 1000
        ):
            # a weight copied (`w.to(dtype)`): where, in case the forward keeps using it
            rec.copy_sites[id(out.grad_fn)] = (out.grad_fn, repo_frame())
        if (
            name in ("view", "reshape", "flatten")
            and rec.depth > 0
            and isinstance(a0, torch.Tensor)
        ):
            ops.reshape(rec, name, a0, out)
        if (
            name in ("view", "reshape")
            and isinstance(a0, torch.Tensor)
            and torch.is_grad_enabled()
            and self._shapes_prediction(a0)
        ):
            ops.permuting_reshape(rec, name, a0, out)
        elif (
            name in ("transpose", "permute", "t") and rec.depth > 0 and isinstance(a0, torch.Tensor)
        ):
            ops.batch_transpose(rec, name, a0, args, out)
        if (
            name in ("view", "reshape", "flatten")
            and isinstance(a0, torch.Tensor)
            and out.dim() == 1
            and a0.dim() == 2
            and not a0.is_floating_point()
        ):
            out._ti_unflat = a0  # per-token targets flattened for the loss
        tag = tag_of(a0)
        if tag is not None:
            kind, frame, src, dim, in_forward = tag
            try:
                src2 = func(src, *args[1:], **kwargs) if src is not None else None
            except Exception:  # noqa: BLE001 - replay on the logits is best effort
                src2 = None
            out._ti_tag = (kind, frame, src2, dim, in_forward)
        if isinstance(a0, torch.Tensor) and getattr(a0, "_ti_boolish", False):
            out._ti_boolish = True  # a boolean mask converted (`.float()`) stays a mask
        if isinstance(a0, torch.Tensor) and (
            getattr(a0, "_ti_expanded", False) or _adds_unit_axis(name, a0, out, args)
        ):
            out._ti_expanded = True  # an axis of size one the code added on purpose
        read_positions.after_op(rec.positions, rec.evaluating(), name, args)
        if name == "__getitem__" and len(args) > 1 and rec.depth == 0:
            train_rows.cut(a0, args[1], out)
            if rec.detailed and torch.is_grad_enabled():
                target_order.gathered(rec, a0, args[1], out)
        if isinstance(a0, torch.Tensor):
            if getattr(a0, "_ti_out", False):
                out._ti_out = True
            if getattr(a0, "_ti_batch", False):
                out._ti_batch = True
            if getattr(a0, "_ti_made", False):
                out._ti_made = True
            fw = getattr(a0, "_ti_fw", None)
            if fw is not None:
                out._ti_fw = fw
                src = getattr(a0, "_ti_src", None)
                if name == "__getitem__" and len(args) > 1 and src is not None:
                    indexed_rows.indexed(a0, args[1], out)
                elif src is not None and out.shape[:1] == a0.shape[:1]:
                    out._ti_src = src  # log_softmax(out) keeps the forward's rows
        if name == "__getitem__" and len(args) > 1 and _is_bool_mask(args[1], a0):
            with rec.quiet():
                # kept of the mask's positions (B * T for a mask over padded tokens)
                out._ti_masked = (int(out.shape[0]), int(args[1].numel()), _few_values(a0))

    # ---- provenance ------------------------------------------------------------------

    def _tag_prob(self, kind: str, out: torch.Tensor, src, args, kwargs) -> None:
        dim = kwargs.get("dim", args[1] if len(args) > 1 and isinstance(args[1], int) else None)
        frame = repo_frame()
        stack = self.rec.stack
        top = stack[-1][0] if stack else None
        parent = stack[-2][0] if len(stack) > 1 else None
        if (
            _library(top)
            and getattr(top, "_ti_created", None)
            and (parent is None or _library(parent))
        ):
            # a library layer run by a library container (nn.ReLU in an nn.Sequential):
            # where the program built it says more than the line that called the
            # container; a layer the program's own forward calls keeps that line
            frame = top._ti_created
        # in_forward: a forward of the program's own modules was running (False: applied to
        # what a forward returned, by the loop or a helper such as predict_proba, directly
        # or through a lone library layer such as nn.Sigmoid)
        in_forward = any(not _library(m) for m, *_ in stack)
        out._ti_tag = (kind, frame, src if isinstance(src, torch.Tensor) else None, dim, in_forward)
        rec = self.rec
        if kind in ("relu", "sigmoid", "tanh") and rec.detailed and out.numel():
            self._activation_stats(kind, out, frame)
        if kind in ("softmax", "log_softmax") and isinstance(src, torch.Tensor):
            self._softmax_dim(kind, src, dim, frame)

    def _activation_stats(self, kind: str, out: torch.Tensor, frame) -> None:
        rec = self.rec
        # one site per call in the forward: a loop or an nn.Sequential applies the same line
        # to several layers, and a dead first layer must not average out with the rest
        n = rec.activation_calls.get(frame_key(frame), 0)
        rec.activation_calls[frame_key(frame)] = n + 1
        key = f"{kind}@{frame_key(frame)}#{n}"
        a = rec.activations.get(key)
        if a is None:
            if len(rec.activations) >= 64:
                return
            a = rec.activations[key] = {
                "kind": kind,
                "frame": frame_dict(frame),
                "calls": 0,
                "inactive": 0.0,
                "dead_units": 0.0,
            }
        x = out.detach()
        if kind == "relu":
            inactive = float((x <= 0).float().mean())
            dead = (
                float((x.reshape(x.shape[0], -1) <= 0).all(0).float().mean())
                if x.dim() >= 2
                else 0.0
            )
        elif kind == "sigmoid":
            inactive = float(((x < 0.01) | (x > 0.99)).float().mean())
            dead = 0.0
        else:
            inactive = float((x.abs() > 0.99).float().mean())
            dead = 0.0
        a["calls"] += 1
        if a["calls"] == 1:
            a["first_dead"] = dead
            a["first_inactive"] = inactive
            a["first_step"] = rec.n_steps
        a["inactive"] += (inactive - a["inactive"]) / a["calls"]
        a["dead_units"] += (dead - a["dead_units"]) / a["calls"]

    def _softmax_dim(self, kind: str, src: torch.Tensor, dim, frame) -> None:
        nd = src.dim()
        implicit = dim is None
        if implicit:
            dim = 0 if nd in (0, 1, 3) else 1
        if dim < 0:
            dim += nd
        b = self.rec.batch_size
        bax = ops.batch_axis(src)
        if nd >= 2 and dim == bax and src.shape[bax] > 1 and (b is None or src.shape[bax] == b):
            self.rec.op_site(
                "batch_dim", frame, op=kind, dim=dim, implicit=implicit, shape=list(src.shape),
                in_forward=self.rec.depth > 0,
            )  # fmt: skip

    # ---- graph cuts ------------------------------------------------------------------

    def _graph_cut(self, kind: str, func, args, kwargs):
        rec = self.rec
        t = args[0]
        in_forward = rec.depth > 0
        training = torch.is_grad_enabled() and bool(getattr(t, "requires_grad", False))
        # only cuts on the path from the training forward to the loss matter
        # (after an evaluation forward made with grad on, a rollout's detach, nothing is)
        on_path = training and (
            in_forward or (rec.between_forward_and_backward and not rec.last_output_eval)
        )
        if on_path and rec.status == "running":
            frame = repo_frame()
            site = rec.op_site(kind, frame, in_forward=in_forward)
            if site:
                site.setdefault("shapes", list(t.shape))
                site["phases"]["train"] = site["phases"].get("train", 0) + 1
                if "_reaches" not in site:
                    with rec.quiet():
                        site["_reaches"] = provenance.leaves_reached(t)
        kept = kept_graph(rec, kind, t, kwargs, on_path)
        if kept is not None:
            return kept
        out = func(*args, **kwargs)  # the program's own call
        if on_path and kind in ("item", "__float__") and isinstance(t, torch.Tensor):
            out = reentry.remember(rec, t, out, repo_frame())
        if kind in ("detach", "data") and isinstance(out, torch.Tensor):
            if on_path:  # cut in the forward or on its way to the loss (`.data` in a
                out._ti_cutterm = repo_frame()  # term); used as data, dropped (term_marks)
            tag = tag_of(t)
            if tag is not None:
                out._ti_tag = tag
            fw = getattr(t, "_ti_fw", None)
            if fw is not None:  # the same values: still that forward's output
                out._ti_fw = fw
        return out
