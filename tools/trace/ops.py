"""Which torch functions the function mode looks at, and what it records about the
shape-changing ones: broadcasts that grow an operand, reductions and arg-max over the
batch dimension, reshapes and transposes that move the batch dimension, attention and
functional dropout that stay active in evaluation.

Each observer aggregates by kind and source line (`Recorder.op_site`).
"""

from __future__ import annotations

import itertools
import math
import operator

import torch

from . import token_layout
from .recorder import Recorder
from .tensors import frame_dict, frame_key, repo_caller, repo_frame

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
# Tensors the program makes from constants, not from its data: a GAN's real/fake labels
# (`torch.full(b, 1.0)`), a mask of ones. As loss targets they are not dataset labels.
FACTORIES = {
    "full", "zeros", "ones", "empty", "full_like", "zeros_like", "ones_like", "empty_like",
    "fill_", "zero_", "new_full", "new_zeros", "new_ones",
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
GRAPH_CUTS = {"detach", "item", "numpy", "tolist", "detach_", "__float__"}
DROPOUTS = ("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout")


def tag_of(t):
    """The provenance tag a probability op left on a tensor: (kind, frame, source, dim,
    in_forward)."""
    return getattr(t, "_ti_tag", None) if isinstance(t, torch.Tensor) else None


def reshape(rec: Recorder, name: str, x: torch.Tensor, out: torch.Tensor) -> None:
    """A view/reshape inside forward that moves the batch dimension."""
    b = rec.batch_size
    if b is None or b < 2 or x.dim() < 2 or out.dim() < 1:
        return
    if (x.shape[0] == b) == (out.shape[0] == b) and x.shape[0] == out.shape[0]:
        return
    if x.shape[0] != b and out.shape[0] != b:
        return
    rec.op_site(
        "batch_reshape",
        repo_frame(),
        op=name,
        shapes=[list(x.shape), list(out.shape)],
        in_forward=True,
    )


def permutation_of(x_shape, out_shape) -> list[int] | None:
    """The axis order that turns `x_shape` into `out_shape` when the reshape reorders its
    axes: only their sizes (`(B, N, 3)` -> `(B, 3, N)`), or with neighbours merged or split
    (`(B, C, H, W)` -> `(B, W, C*H)`), where the reshape as written merges and splits
    nothing cleanly. What a permute first would give; None when the reshape only merges
    or splits neighbouring axes, or no reordering that keeps the first axis explains it."""
    x_shape, out_shape = list(x_shape), list(out_shape)
    if x_shape == out_shape:
        return None
    if len(x_shape) == len(out_shape) and sorted(x_shape) == sorted(out_shape):
        free = list(range(len(x_shape)))
        perm = []
        for size in out_shape:
            j = next(j for j in free if x_shape[j] == size)
            free.remove(j)
            perm.append(j)
        return perm
    if (
        not 2 < len(x_shape) <= 5
        or math.prod(x_shape) != math.prod(out_shape)
        or _regroups(x_shape, out_shape)
    ):
        return None
    for perm in itertools.permutations(range(1, len(x_shape))):
        order = [0, *perm]
        if _regroups([x_shape[i] for i in order], out_shape):
            return order
    return None


def _regroups(a: list[int], b: list[int]) -> bool:
    """`b` merges neighbouring axes of `a`, or splits them: the boundaries of one (the
    running products of its sizes) are among the other's."""
    ca, cb = set(itertools.accumulate(a, operator.mul)), set(itertools.accumulate(b, operator.mul))
    return ca <= cb or cb <= ca


def permuting_reshape(rec: Recorder, name: str, x: torch.Tensor, out: torch.Tensor) -> None:
    """A view/reshape on the training path (inside the forward, or of its prediction before
    the loss) whose result has the input's sizes in another order: data laid out for one
    axis order read as another, as a reshape used where a transpose was meant does."""
    if permutation_of(x.shape, out.shape) is None or min(x.shape) < 2:
        return
    site = rec.op_site(
        "permuting_reshape", repo_frame(), op=name, shapes=[list(x.shape), list(out.shape)],
        in_forward=rec.depth > 0,
    )  # fmt: skip
    if site:
        site["phases"]["train"] = site["phases"].get("train", 0) + 1


def before_training(rec: Recorder, name: str, args, out) -> None:
    """The ops that lay out the data before the first forward: the layout of token ids
    (token_layout.py) and a reshape that reorders axes."""
    token_layout.laid_out(rec, name, out)
    data_reshape(rec, name, args, out)


def data_reshape(rec: Recorder, name: str, args, out) -> None:
    """Before the first forward, a view/reshape of data of three or more axes to its own
    sizes in another order (`(N, H, W, 3)` -> `(N, 3, H, W)`): the samples' values laid
    out for one axis order, read as another, before the model ever sees them."""
    if name not in ("view", "reshape") or rec.counts["forward"] or not args:
        return
    x = args[0]
    if not isinstance(x, torch.Tensor) or not isinstance(out, torch.Tensor) or x.dim() < 3:
        return
    if permutation_of(x.shape, out.shape) is None or min(x.shape) < 2:
        return
    with rec.quiet():
        site = rec.op_site(
            "permuting_reshape", repo_frame(), op=name,
            shapes=[list(x.shape), list(out.shape)], in_forward=False,
        )  # fmt: skip
    if site:
        site["phases"]["data"] = site["phases"].get("data", 0) + 1


def batch_axis(t: torch.Tensor) -> int:
    """Where a tensor holds the batch: axis 0, or where a transpose inside the forward
    moved it (`_ti_bax`)."""
    return getattr(t, "_ti_bax", 0)


def batch_transpose(rec: Recorder, name: str, x: torch.Tensor, args, out: torch.Tensor) -> None:
    """A transpose/permute that moves dim 0 of a batch-sized tensor inside forward; the
    output remembers where the batch went, so a reduction over it there is seen."""
    b = rec.batch_size
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
        rec.op_site("batch_transpose", repo_frame(), op=name, shape=list(x.shape), in_forward=True)
        if name == "permute":
            moved = list(dims).index(0) if 0 in dims else None
        elif name == "t":
            moved = 1
        else:
            moved = dims[1] if dims[0] == 0 else dims[0]
        if moved is not None and out.dim() == x.dim():
            out._ti_bax = moved % out.dim()


def broadcast(rec: Recorder, name: str, args) -> str | None:
    """A binary op whose result is larger than both operands: the site, else None."""
    a, b = args[0], args[1]
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return None
    if a.shape == b.shape or a.dim() == 0 or b.dim() == 0:
        return None
    try:
        shape = torch.broadcast_shapes(a.shape, b.shape)
    except RuntimeError:
        return None
    n = math.prod(shape)
    if n <= max(a.numel(), b.numel()):
        return None
    frame = repo_frame()
    # every operand that gets broadcast had its unit axes added by the program on purpose
    # (`s.unsqueeze(2) - s.unsqueeze(1)`: all pairs): an outer operation by design
    deliberate = all(
        getattr(t, "_ti_expanded", False) or _per_feature(rec, t, shape)
        for t in (a, b)
        if tuple(t.shape) != tuple(shape)
    )
    site = rec.op_site(
        "broadcast", frame, op=name.strip("_"), shapes=[list(a.shape), list(b.shape)],
        out_shape=list(shape), in_forward=rec.depth > 0,
        roles=[_role(a), _role(b)], deliberate=deliberate,
    )  # fmt: skip
    if site:
        # a metric computed after its `no_grad` block closed still scores an evaluation
        # forward's output: outside a forward with nothing on a gradient path, evaluation
        idle = rec.depth == 0 and not (a.requires_grad or b.requires_grad)
        ph = "eval" if idle and rec.evaluating() else rec.phase_now()
        site["phases"][ph] = site["phases"].get(ph, 0) + 1
    return frame_key(frame)


def _per_feature(rec: Recorder, t: torch.Tensor, shape) -> bool:
    """An operand broadcast only along leading axes it lacks, as a bias or a per-feature
    vector is (`u * s.unsqueeze(1)`, u of shape [D]), computed from neither the batch nor a
    prediction, and not one value per sample: broadcasting's ordinary use."""
    return (
        t.dim() < len(shape)
        and tuple(t.shape) == tuple(shape[len(shape) - t.dim() :])
        and _role(t) == "other"
        and (rec.batch_size is None or t.shape[0] != rec.batch_size)
    )


def on_gradient_path(t) -> bool:
    """A tensor the loss's gradient can flow through, or computed from a model's output."""
    return isinstance(t, torch.Tensor) and (t.requires_grad or _role(t) == "prediction")


def _role(t: torch.Tensor) -> str:
    """What an operand is: computed from a model's output, from a batch, or neither."""
    if getattr(t, "_ti_out", False) or getattr(t, "_ti_pred", False):
        return "prediction"
    if getattr(t, "_ti_batch", False):
        return "batch"
    return "other"


def reduction_dim(rec: Recorder, name: str, args, kwargs) -> None:
    """A reduction or arg-max over the batch dimension (or over a flattened batch)."""
    if name in ("softmax", "log_softmax") or not args or not isinstance(args[0], torch.Tensor):
        return
    t = args[0]
    pos, default = DIM_POSITION.get(name, (1, None))
    dim = kwargs.get(
        "dim",
        args[pos] if len(args) > pos and isinstance(args[pos], (int, tuple, list)) else default,
    )
    if dim is None:
        if name in ("argmax", "argmin") and t.dim() >= 2 and t.shape[0] > 1:
            site = rec.op_site(
                "argmax_flat", repo_frame(), op=name, shape=list(t.shape), in_forward=rec.depth > 0
            )
            _mark_model_output(site, t)
        return
    if isinstance(dim, (tuple, list)):
        return
    if dim < 0:
        dim += t.dim()
    b = rec.batch_size
    bax = batch_axis(t)
    if dim == bax and t.dim() >= 2 and t.shape[bax] > 1 and b is not None and t.shape[bax] == b:
        if rec.depth > 0 or name in ("argmax", "argmin"):
            site = rec.op_site(
                "batch_dim",
                repo_frame(),
                op=name,
                dim=dim,
                implicit=False,
                shape=list(t.shape),
                in_forward=rec.depth > 0,
            )
            _mark_model_output(site, t)


def _mark_model_output(site: dict, t: torch.Tensor) -> None:
    if site:
        site["model_output"] = site.get("model_output", False) or bool(getattr(t, "_ti_out", False))


def attention(rec: Recorder, args, kwargs) -> None:
    """scaled_dot_product_attention with dropout, and whether its module was in eval."""
    p = kwargs.get("dropout_p", args[4] if len(args) > 4 else 0.0)
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


def functional_dropout(rec: Recorder, name: str, args, kwargs) -> None:
    """F.dropout with training=True inside a module in eval mode (it ignores the mode)."""
    training = kwargs.get("training", args[2] if len(args) > 2 else True)
    p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
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


# the sum of scalar terms a training loss is made of: `recon + kl`, `loss - beta * h`
TERM_SUMS = {"add", "sub", "__add__", "__radd__", "__sub__", "__rsub__", "rsub"}
MAX_TERM_VALUES = 2000


WEIGHTINGS = {"mul", "__mul__", "__rmul__", "div", "__truediv__"}
# log-probabilities (never above zero: what a likelihood is made of), and the ops that keep
# one a log-probability: selecting, reshaping, summing (the log of a joint probability),
# averaging, weighting by a positive number
LOG_PROBS = {"logsigmoid", "log_sigmoid", "log_softmax"}
KEEPS_LOG_PROB = PASSTHROUGH | {"gather", "take_along_dim", "masked_select", "mean", "sum"}


def log_prob_made(name: str, args, out: torch.Tensor) -> None:
    """Marks `out` as a log-probability: a log_sigmoid or log_softmax, the log of a softmax
    or a sigmoid, or one of those selected, summed, averaged or weighted by a positive
    number. A negation, or a product with another tensor (an advantage, a probability),
    makes something else."""
    a0 = args[0] if args else None
    tag = tag_of(a0)
    if (
        name in LOG_PROBS
        or (name == "log" and tag is not None and tag[0] in ("softmax", "sigmoid"))
        or (name in KEEPS_LOG_PROB and getattr(a0, "_ti_logp", False))
        or (name in WEIGHTINGS and _positively_weighted(args, "_ti_logp"))
    ):
        out._ti_logp = True


def _positively_weighted(args, attr: str) -> bool:
    tensors = [a for a in args[:2] if isinstance(a, torch.Tensor)]
    numbers = [a for a in args[:2] if isinstance(a, int | float) and not isinstance(a, bool)]
    return (
        len(tensors) == 1
        and len(numbers) == 1
        and numbers[0] > 0
        and bool(getattr(tensors[0], attr, False))
    )


def scalar_made(rec: Recorder, name: str, args, out: torch.Tensor) -> None:
    """A scalar on the way to a training loss: the line that computed it (the last op that
    wrote it: `0.5 * torch.sum(...)` is the line of the sum and the scaling). A weighting
    by a positive number (`beta * kl`, `loss / accum`) keeps the line of what it weighs,
    and the mean or sum of per-sample terms the line of those terms;
    a negative one changes the sign, and a sign is decided where it is written."""
    frame = repo_frame()
    out._ti_scalar = _weighted(name, args) or _reduced(name, args) or frame_key(frame)
    if out.dim() == 0:
        out._ti_made = frame  # which function computed it (the program's loss, for probes)


def _reduced(name: str, args) -> str | None:
    """The mean or sum of per-sample terms keeps the line that computed them (`kl.mean()`
    of a KL computed per sample in a helper): a reduction decides no sign."""
    if name not in ("mean", "sum") or not args or not isinstance(args[0], torch.Tensor):
        return None
    return getattr(args[0], "_ti_scalar", None)


def _weighted(name: str, args) -> str | None:
    if name not in WEIGHTINGS or len(args) < 2:
        return None
    tensors = [a for a in args[:2] if isinstance(a, torch.Tensor)]
    numbers = [a for a in args[:2] if isinstance(a, int | float) and not isinstance(a, bool)]
    if len(tensors) != 1 or len(numbers) != 1 or numbers[0] <= 0:
        return None
    return getattr(tensors[0], "_ti_scalar", None)


def loss_term(rec: Recorder, name: str, args, out: torch.Tensor) -> None:
    """Two scalars (or two per-sample vectors, outside any forward) that both carry
    gradient added or subtracted into one: the values each contributes (a vector's mean),
    step by step, by the line that computed it. A term whose value runs away while the
    total falls is the one that leaves the objective without a minimum."""
    a, b = args[0], args[1]
    if not all(isinstance(x, torch.Tensor) and x.requires_grad for x in (a, b)):
        return
    if not (a.dim() == b.dim() == out.dim() <= 1 and a.shape == b.shape):
        return
    frame = repo_frame()
    site = rec.loss_terms.get(frame_key(frame))
    if site is None:
        if len(rec.loss_terms) >= 32:
            return
        site = rec.loss_terms[frame_key(frame)] = {"frame": frame_dict(frame), "terms": {}}
    first, second = (b, a) if name in ("__rsub__", "rsub") else (a, b)
    sign = -1.0 if name in TERM_SUMS - {"add", "__add__", "__radd__"} else 1.0
    for x, s in ((first, 1.0), (second, sign)):
        key = getattr(x, "_ti_scalar", None) or "?"
        if s > 0 and getattr(x, "_ti_logp", False):
            site.setdefault("log_probs", set()).add(key)  # a log-probability added as it is
        values = site["terms"].setdefault(key, [])
        if len(values) < MAX_TERM_VALUES:
            v = float(x.detach().float().mean()) * s
            values.append((rec.n_steps, v if math.isfinite(v) else None))


def mask_product(rec: Recorder, args) -> None:
    """A tensor that carries gradient multiplied by a boolean mask on the training path
    (`(hinge * pairs).sum() / pairs.sum()`): how many elements the mask keeps. A mask
    that keeps nothing turns the term into an exact zero with no gradient."""
    a, b = args[0], args[1]
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return
    grad, mask = (a, b) if a.requires_grad else (b, a)
    boolish = mask.dtype == torch.bool or getattr(mask, "_ti_boolish", False)
    if not grad.requires_grad or mask.requires_grad or not boolish or mask.numel() < 2:
        return
    frame = repo_frame()
    site = rec.op_site("mask_product", frame, shape=list(mask.shape), in_forward=rec.depth > 0)
    if not site:
        return
    kept = int(mask.sum())
    site["empty"] = site.get("empty", 0) + (kept == 0)
    site["kept"] = site.get("kept", 0) + kept
    site["total"] = site.get("total", 0) + mask.numel()


def renormalized(rec: Recorder, x) -> None:
    """A log_softmax applied to a softmax's output: the probabilities normalized a second
    time (a hand-written cross-entropy fed `predict_proba`). Kept with where the
    probabilities were made, whether a forward of the program's modules made them, and
    the program's line that called the function holding the log_softmax."""
    tag = tag_of(x)
    if tag is None or tag[0] != "softmax":
        return
    frame = repo_frame()
    if frame is None:
        return
    site = rec.op_site(
        "renormalized",
        frame,
        op="log_softmax",
        source=frame_dict(tag[1]),
        source_in_forward=bool(tag[4]),
        caller=frame_dict(repo_caller(frame)),
        in_forward=rec.depth > 0,
    )
    if site:
        phase = "train" if torch.is_grad_enabled() and x.requires_grad else "eval"
        site["phases"][phase] = site["phases"].get(phase, 0) + 1
