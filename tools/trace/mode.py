"""A TorchFunctionMode that sees every torch call of the traced program.

It records what the protocol asks about ops: silent broadcasting, reductions and
softmax over the batch dimension, graph cuts (detach, .data, .item, numpy round
trips, torch.tensor re-wraps), loss calls with their operands, and provenance tags
(softmax/sigmoid/log_softmax/relu/tanh) carried through view-like ops to the loss.
It also applies the op-level interventions (strip a probability op, swap loss
arguments, keep the graph, fix a broadcast, fixed targets) and maps CUDA device
requests to the CPU.

Invariants: the handler is popped from the mode stack while it runs, so torch
calls it makes are not re-entered; tracer code elsewhere sets `recorder.busy`.
"""

from __future__ import annotations

import math

import torch
from torch.overrides import TorchFunctionMode

from .recorder import MAX_EVENTS, Recorder
from .tensors import frame_dict, frame_key, repo_frame, summarize

PROB_OPS = {
    "softmax": "softmax",
    "log_softmax": "log_softmax",
    "sigmoid": "sigmoid",
    "relu": "relu",
    "tanh": "tanh",
}
PASSTHROUGH = {
    "view", "reshape", "squeeze", "unsqueeze", "flatten", "contiguous", "clone", "to", "float",
    "double", "half", "type", "__getitem__", "permute", "transpose", "t", "select", "narrow",
    "view_as", "reshape_as", "cpu", "squeeze_", "unsqueeze_", "type_as",
}  # fmt: skip
BINARY = {
    "add", "sub", "mul", "div", "true_divide", "pow", "eq", "ne", "lt", "le", "gt", "ge",
    "maximum", "minimum", "rsub", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__",
    "__rmul__", "__truediv__", "__rtruediv__", "__pow__", "__eq__", "__ne__", "__lt__",
    "__le__", "__gt__", "__ge__", "squared_difference", "atan2", "hypot", "where",
}  # fmt: skip
LOSSES = {
    "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div", "poisson_nll_loss",
    "soft_margin_loss", "multilabel_soft_margin_loss", "multi_margin_loss",
    "multilabel_margin_loss", "hinge_embedding_loss",
}  # fmt: skip
SYMMETRIC_LOSSES = {"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"}
DIM_OPS = {
    "softmax",
    "log_softmax",
    "argmax",
    "argmin",
    "max",
    "min",
    "mean",
    "sum",
    "cumsum",
    "norm",
    "logsumexp",
    "std",
    "var",
    "normalize",
    "amax",
    "amin",
    "median",
    "prod",
    "var_mean",
    "std_mean",
    "cumprod",
    "logcumsumexp",
}
DIM_POSITION = {"normalize": (2, 1)}  # (position of dim, default dim) where it is not (1, None)
GRAPH_CUTS = {"detach", "item", "numpy", "tolist", "detach_"}


def _cuda_device(d) -> bool:
    if isinstance(d, str):
        return d.startswith("cuda")
    if isinstance(d, torch.device):
        return d.type == "cuda"
    return False


def _tag(t):
    return getattr(t, "_ti_tag", None) if isinstance(t, torch.Tensor) else None


def _is_bool_mask(index, src) -> bool:
    return (
        isinstance(index, torch.Tensor)
        and index.dtype == torch.bool
        and isinstance(src, torch.Tensor)
        and src.dim() >= 1
    )


def _few_values(t: torch.Tensor) -> list[float] | None:
    if t.numel() > 100_000 or (t.is_floating_point() and not bool((t == t.round()).all())):
        return None
    u = torch.unique(t)
    return u.tolist() if u.numel() <= 16 else None


class TraceMode(TorchFunctionMode):
    def __init__(self, rec: Recorder) -> None:
        super().__init__()
        self.rec = rec
        self.perm: torch.Tensor | None = None
        # interventions that act on ops before the loss need every training op
        self.op_interventions = rec.iv.strip_prob or rec.iv.keep_graph

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        rec = self.rec
        if rec.cfg.map_cuda and "device" in kwargs and _cuda_device(kwargs["device"]):
            kwargs = {**kwargs, "device": "cpu"}
        if rec.busy or not rec.cfg.trace:
            return func(*args, **kwargs)
        name = getattr(func, "__name__", "")
        if name == "__get__":
            prop = getattr(getattr(func, "__self__", None), "__name__", "")
            if prop == "data" and args and isinstance(args[0], torch.Tensor):
                return self._graph_cut("data", func, args, kwargs)
            return func(*args, **kwargs)
        if name in LOSSES:
            return self._loss(name, func, args, kwargs)
        # training ops are examined in the detailed steps (a new training phase opens new
        # ones); evaluation ops, where metric bugs live, always
        if rec.fast_forward or (
            not rec.detailed and not self.op_interventions and torch.is_grad_enabled()
        ):
            return func(*args, **kwargs)
        if name in GRAPH_CUTS:
            return self._graph_cut(name, func, args, kwargs)
        if name == "tensor" and args and isinstance(args[0], torch.Tensor):
            return self._graph_cut("tensor_rewrap", func, args, kwargs)
        if name == "from_numpy" and rec.depth > 0:
            rec.op_site("from_numpy", repo_frame(), in_forward=True)
        if name in BINARY and len(args) >= 2:
            self._broadcast(name, args)
        if name in DIM_OPS:
            self._dim(name, args, kwargs)
        if name == "scaled_dot_product_attention":
            self._attention(args, kwargs)
        elif name in ("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout"):
            self._dropout(name, args, kwargs)

        out = func(*args, **kwargs)

        a0 = args[0] if args else None
        if isinstance(out, torch.Tensor):
            if name in PROB_OPS:
                self._tag_prob(PROB_OPS[name], out, a0, args, kwargs)
            elif name in PASSTHROUGH:
                if (
                    name in ("view", "reshape", "flatten")
                    and rec.depth > 0
                    and isinstance(a0, torch.Tensor)
                ):
                    self._reshape(name, a0, out)
                elif (
                    name in ("transpose", "permute", "t")
                    and rec.depth > 0
                    and isinstance(a0, torch.Tensor)
                ):
                    self._batch_transpose(name, a0, args)
                tag = _tag(a0)
                if tag is not None:
                    kind, frame, src, dim = tag
                    try:
                        src2 = func(src, *args[1:], **kwargs) if src is not None else None
                    except Exception:  # noqa: BLE001 - replay on the logits is best effort
                        src2 = None
                    out._ti_tag = (kind, frame, src2, dim)
                if isinstance(a0, torch.Tensor):
                    if getattr(a0, "_ti_out", False):
                        out._ti_out = True
                    if getattr(a0, "_ti_batch", False):
                        out._ti_batch = True
                    fw = getattr(a0, "_ti_fw", None)
                    if fw is not None:
                        out._ti_fw = fw
                if name == "__getitem__" and len(args) > 1 and _is_bool_mask(args[1], a0):
                    with rec.quiet():
                        out._ti_masked = (int(out.shape[0]), int(a0.shape[0]), _few_values(a0))
            bc = getattr(a0, "_ti_bcast", None) if isinstance(a0, torch.Tensor) else None
            if bc is None and len(args) > 1 and isinstance(args[1], torch.Tensor):
                bc = getattr(args[1], "_ti_bcast", None)
            if bc is not None:
                out._ti_bcast = bc
            if name in BINARY and getattr(self, "_grew", None):
                out._ti_bcast = self._grew
                self._grew = None
        return out

    # ---- provenance ------------------------------------------------------------------

    def _tag_prob(self, kind: str, out: torch.Tensor, src, args, kwargs) -> None:
        dim = kwargs.get("dim", args[1] if len(args) > 1 and isinstance(args[1], int) else None)
        frame = repo_frame()
        out._ti_tag = (kind, frame, src if isinstance(src, torch.Tensor) else None, dim)
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
        if nd >= 2 and dim == 0 and src.shape[0] > 1 and (b is None or src.shape[0] == b):
            self.rec.op_site(
                "batch_dim", frame, op=kind, dim=0, implicit=implicit, shape=list(src.shape),
                in_forward=self.rec.depth > 0,
            )  # fmt: skip

    def _reshape(self, name: str, x: torch.Tensor, out: torch.Tensor) -> None:
        """A view/reshape inside forward that moves the batch dimension."""
        b = self.rec.batch_size
        if b is None or b < 2 or x.dim() < 2 or out.dim() < 1:
            return
        if (x.shape[0] == b) == (out.shape[0] == b) and x.shape[0] == out.shape[0]:
            return
        if x.shape[0] != b and out.shape[0] != b:
            return
        self.rec.op_site(
            "batch_reshape",
            repo_frame(),
            op=name,
            shapes=[list(x.shape), list(out.shape)],
            in_forward=True,
        )

    def _batch_transpose(self, name: str, x: torch.Tensor, args) -> None:
        """A transpose/permute that moves dim 0 of a batch-sized tensor inside forward."""
        b = self.rec.batch_size
        if b is None or b < 2 or x.dim() < 2 or x.shape[0] != b:
            return
        dims = [a for a in args[1:] if isinstance(a, int)]
        if name == "permute" and len(args) > 1 and isinstance(args[1], (tuple, list)):
            dims = list(args[1])
        moves = (
            name == "t"
            or (name == "permute" and bool(dims) and dims[0] != 0)
            or (name == "transpose" and 0 in dims[:2])
        )
        if moves:
            self.rec.op_site(
                "batch_transpose", repo_frame(), op=name, shape=list(x.shape), in_forward=True
            )

    # ---- graph cuts ------------------------------------------------------------------

    def _graph_cut(self, kind: str, func, args, kwargs):
        rec = self.rec
        t = args[0]
        in_forward = rec.depth > 0
        training = torch.is_grad_enabled() and bool(getattr(t, "requires_grad", False))
        # only cuts on the path from the training forward to the loss matter
        if (
            training
            and rec.status == "running"
            and (in_forward or rec.between_forward_and_backward)
        ):
            frame = repo_frame()
            site = rec.op_site(kind, frame, in_forward=in_forward)
            if site:
                site.setdefault("shapes", list(t.shape))
                site["phases"]["train"] = site["phases"].get("train", 0) + 1
        if rec.iv.keep_graph and training and (in_forward or rec.between_forward_and_backward):
            if kind in ("detach", "data"):
                return t
            if kind == "tensor_rewrap":
                out = t.clone()
                dt = kwargs.get("dtype")
                return out.to(dt) if dt is not None else out
        out = func(*args, **kwargs)
        if kind in ("detach", "data") and isinstance(out, torch.Tensor):
            tag = _tag(t)
            if tag is not None:
                out._ti_tag = tag
        return out

    # ---- shapes ---------------------------------------------------------------------

    def _broadcast(self, name: str, args) -> None:
        a, b = args[0], args[1]
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            return
        if a.shape == b.shape or a.dim() == 0 or b.dim() == 0:
            return
        try:
            shape = torch.broadcast_shapes(a.shape, b.shape)
        except RuntimeError:
            return
        n = math.prod(shape)
        if n > max(a.numel(), b.numel()):
            frame = repo_frame()
            rec = self.rec
            site = rec.op_site(
                "broadcast", frame, op=name.strip("_"), shapes=[list(a.shape), list(b.shape)],
                out_shape=list(shape), in_forward=rec.depth > 0,
            )  # fmt: skip
            if site:
                ph = rec.phase_now()
                site["phases"][ph] = site["phases"].get(ph, 0) + 1
            self._grew = frame_key(frame)

    def _dim(self, name: str, args, kwargs) -> None:
        if name in ("softmax", "log_softmax") or not args or not isinstance(args[0], torch.Tensor):
            return
        t = args[0]
        pos, default = DIM_POSITION.get(name, (1, None))
        dim = kwargs.get(
            "dim",
            args[pos] if len(args) > pos and isinstance(args[pos], (int, tuple, list)) else default,
        )
        rec = self.rec
        if dim is None:
            if name in ("argmax", "argmin") and t.dim() >= 2 and t.shape[0] > 1:
                frame = repo_frame()
                site = rec.op_site(
                    "argmax_flat", frame, op=name, shape=list(t.shape), in_forward=rec.depth > 0
                )
                if site:
                    site["model_output"] = site.get("model_output", False) or bool(
                        getattr(t, "_ti_out", False)
                    )
            return
        if isinstance(dim, (tuple, list)):
            return
        if dim < 0:
            dim += t.dim()
        b = rec.batch_size
        if dim == 0 and t.dim() >= 2 and t.shape[0] > 1 and b is not None and t.shape[0] == b:
            if rec.depth > 0 or name in ("argmax", "argmin"):
                frame = repo_frame()
                site = rec.op_site(
                    "batch_dim",
                    frame,
                    op=name,
                    dim=0,
                    implicit=False,
                    shape=list(t.shape),
                    in_forward=rec.depth > 0,
                )
                if site:
                    site["model_output"] = site.get("model_output", False) or bool(
                        getattr(t, "_ti_out", False)
                    )

    def _attention(self, args, kwargs) -> None:
        p = kwargs.get("dropout_p", args[4] if len(args) > 4 else 0.0)
        rec = self.rec
        owner = rec.stack[-1][0] if rec.stack else None
        if owner is None or not p:
            return
        frame = repo_frame()
        key = frame_key(frame)
        s = rec.sdpa.setdefault(
            key, {"frame": frame_dict(frame), "dropout_p": float(p), "calls_in_eval": 0, "calls": 0}
        )
        s["calls"] += 1
        if not owner.training:
            s["calls_in_eval"] += 1

    def _dropout(self, name: str, args, kwargs) -> None:
        training = kwargs.get("training", args[2] if len(args) > 2 else True)
        p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
        rec = self.rec
        owner = rec.stack[-1][0] if rec.stack else None
        if owner is None or not training or not p or owner.training:
            return
        frame = repo_frame()
        key = frame_key(frame)
        s = rec.sdpa.setdefault(
            key,
            {
                "frame": frame_dict(frame),
                "dropout_p": float(p),
                "calls_in_eval": 0,
                "calls": 0,
                "functional_dropout": True,
            },
        )
        s["calls"] += 1
        s["calls_in_eval"] += 1

    # ---- losses ----------------------------------------------------------------------

    def _loss(self, name: str, func, args, kwargs):
        rec = self.rec
        args = list(args)
        kwargs = dict(kwargs)

        # (input, target) by position or keyword
        def get(i, key):
            if len(args) > i:
                return args[i]
            return kwargs.get(key)

        def put(i, key, v):
            if len(args) > i:
                args[i] = v
            else:
                kwargs[key] = v

        inp, tgt = get(0, "input"), get(1, "target")
        if not isinstance(inp, torch.Tensor) or not isinstance(tgt, torch.Tensor):
            return func(*args, **kwargs)
        grad = torch.is_grad_enabled()
        frame = repo_frame()
        iv = rec.iv
        applied = []
        if grad and rec.status == "running":
            if iv.swap_loss_args and name not in SYMMETRIC_LOSSES:
                inp, tgt = tgt, inp
                applied.append("swap_loss_args")
            tag = _tag(inp)
            if iv.strip_prob and tag is not None and tag[2] is not None:
                stripped = self._strip(name, tag, inp)
                if stripped is not None:
                    inp = stripped
                    applied.append(f"strip_{tag[0]}")
            if iv.fix_broadcast and inp.shape != tgt.shape and inp.numel() == tgt.numel():
                inp = inp.reshape(tgt.shape)
                applied.append("fix_broadcast")
            if iv.holdout and rec.fixed.get("holdout_pending"):
                rec.fixed["holdout_target"] = tgt.detach().clone()
                rec.fixed["holdout_input_shape"] = tuple(inp.shape)
                rec.fixed["holdout_pending"] = False
            if iv.fixed_batch and rec.fixed_level == "forward":
                key = frame_key(frame)
                stored = rec.fixed.setdefault("targets", {}).get(key)
                if stored is None:
                    rec.fixed["targets"][key] = tgt.detach().clone()
                else:
                    tgt = stored.clone()
            if iv.shuffle_targets and iv.fixed_batch and tgt.dim() >= 1 and tgt.shape[0] > 1:
                if self.perm is None or self.perm.numel() != tgt.shape[0]:
                    g = torch.Generator().manual_seed(7)
                    self.perm = torch.randperm(tgt.shape[0], generator=g)
                tgt = tgt[self.perm]
            if rec.first_target is None and rec.cfg.probe_code:
                rec.first_target = tgt.detach().clone()
            if rec.fixed.get("loss_fn") is None:
                rec.fixed["loss_fn"] = (
                    func,
                    {k: v for k, v in kwargs.items() if k not in ("input", "target")},
                    args[2:],
                )
            put(0, "input", inp)
            put(1, "target", tgt)

        record = None
        key = frame_key(frame)
        if key not in rec.loss_sites and not rec.detailed and grad and not rec.fast_forward:
            rec.open_detail_window(f"a new loss at {key}")
        detailed = rec.detailed or (
            not grad and len(rec.loss_calls) < MAX_EVENTS and not rec.fast_forward
        )
        with rec.quiet():
            if detailed and len(rec.loss_calls) < MAX_EVENTS:
                record = self._describe_loss(name, inp, tgt, kwargs, args, frame, grad)
                record["interventions"] = applied
                rec.loss_calls.append(record)
        out = func(*args, **kwargs)
        with rec.quiet():
            key = frame_key(frame)
            site = rec.loss_sites.get(key)
            if site is None:
                site = rec.loss_sites[key] = {
                    "fn": name,
                    "frame": frame_dict(frame),
                    "calls": 0,
                    "grad_calls": 0,
                    "nograd_calls": 0,
                    "nonfinite": 0,
                }
            site["calls"] += 1
            site["grad_calls" if grad else "nograd_calls"] += 1
            if isinstance(out, torch.Tensor) and out.numel() == 1:
                v = float(out.detach())
                if not math.isfinite(v):
                    site["nonfinite"] += 1
                if record is not None:
                    record["value"] = v if math.isfinite(v) else str(v)
            if record is not None:
                record["output_grad_fn"] = (
                    type(out.grad_fn).__name__
                    if isinstance(out, torch.Tensor) and out.grad_fn is not None
                    else None
                )
                # targets are what the batch supplies: a swapped call passes them first
                swapped = tgt.requires_grad and not inp.requires_grad
                record["_target"] = ((inp if swapped else tgt).detach(), rec.last_input)
                if grad and isinstance(out, torch.Tensor) and out.grad_fn is not None:
                    rec.pending.append((record, out.grad_fn))
                else:
                    rec._resolve(record, "eval" if not grad else "train")
            rec.event("loss", frame)
        return out

    def _strip(self, name: str, tag, inp: torch.Tensor):
        kind, _, src, _ = tag
        if src is None or src.shape != inp.shape:
            return None
        if kind == "softmax" and name in ("cross_entropy",):
            return src
        if kind == "softmax" and name == "nll_loss":
            return torch.log_softmax(src, dim=tag[3] if tag[3] is not None else 1)
        if kind == "sigmoid" and name == "binary_cross_entropy_with_logits":
            return src
        if kind in ("relu", "tanh") and name in (
            "cross_entropy",
            "binary_cross_entropy_with_logits",
            "mse_loss",
            "l1_loss",
            "smooth_l1_loss",
            "huber_loss",
        ):
            return src
        return None

    def _describe_loss(self, name, inp, tgt, kwargs, args, frame, grad) -> dict:
        d: dict = {
            "fn": name,
            "frame": frame_dict(frame),
            "phase": None if grad else "eval",
            "grad_enabled": grad,
            "step": self.rec.n_steps,
        }
        isum = summarize(inp, values=False)
        tag = _tag(inp)
        isum["provenance"] = (
            {"op": tag[0], "frame": frame_dict(tag[1]), "dim": tag[3]} if tag else None
        )
        isum["requires_grad"] = bool(inp.requires_grad)
        isum["grad_fn"] = type(inp.grad_fn).__name__ if inp.grad_fn is not None else None
        isum["model_output"] = bool(getattr(inp, "_ti_out", False))
        x = inp.detach()
        if x.is_floating_point() and x.dim() >= 2 and x.shape[1] > 1 and x.numel():
            cls_dim = 1
            s = x.sum(cls_dim)
            e = x.exp().sum(cls_dim)
            isum["rows_sum_to_one"] = (
                float(((s - 1).abs() < 1e-3).float().mean()) if bool((x >= 0).all()) else 0.0
            )
            isum["rows_exp_sum_to_one"] = (
                float(((e - 1).abs() < 1e-3).float().mean()) if bool((x <= 0).all()) else 0.0
            )
        if x.is_floating_point() and x.numel():
            isum["in_unit_interval"] = bool((x >= 0).all() and (x <= 1).all())
        d["input"] = isum
        tsum = summarize(tgt)
        ttag = _tag(tgt)
        tsum["provenance"] = {"op": ttag[0], "frame": frame_dict(ttag[1])} if ttag else None
        tsum["requires_grad"] = bool(tgt.requires_grad)
        tsum["grad_fn"] = type(tgt.grad_fn).__name__ if tgt.grad_fn is not None else None
        tsum["model_output"] = bool(getattr(tgt, "_ti_out", False))
        tsum["from_batch"] = bool(getattr(tgt, "_ti_batch", False))
        masked = getattr(tgt, "_ti_masked", None)
        if masked is not None:
            d["mask"] = {"kept": masked[0], "total": masked[1], "source_values": masked[2]}
        owner = self.rec.stack[-1] if self.rec.stack else None
        if owner is not None and owner[1] == "other":
            d["module_frame"] = frame_dict(getattr(owner[0], "_ti_created", None))
        isum["from_batch"] = bool(getattr(inp, "_ti_batch", False))
        d["target"] = tsum
        d["reduction"] = kwargs.get("reduction", "mean")
        total = (
            tgt.numel()
            if name in ("cross_entropy", "nll_loss") and not tgt.is_floating_point()
            else max(inp.numel(), tgt.numel())
        )
        contributing = total
        if name in ("cross_entropy", "nll_loss") and not tgt.is_floating_point():
            ignore = kwargs.get(
                "ignore_index", args[4] if len(args) > 4 and isinstance(args[4], int) else -100
            )
            d["ignore_index"] = ignore
            contributing = int((tgt != ignore).sum())
            if contributing:
                kept = tgt[tgt != ignore]
                uniq = torch.unique(kept)
                d["contributing_values"] = uniq[:16].tolist()
        if inp.shape != tgt.shape and name not in (
            "cross_entropy",
            "nll_loss",
            "multi_margin_loss",
            "multilabel_margin_loss",
        ):
            try:
                bshape = list(torch.broadcast_shapes(inp.shape, tgt.shape))
                d["broadcast_shape"] = bshape
                total = math.prod(bshape)
                contributing = total
            except RuntimeError:
                d["broadcast_shape"] = None
        d["total_elements"] = total
        d["contributing_elements"] = contributing
        return d
