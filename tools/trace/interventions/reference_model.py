"""reference_model: the top model's output replaced by that of a wide network of the same
input, fitted by the reference Adam beside the program's optimizer. When the program's
model cannot fit even a pool of training batches, the pairing test asks this network
instead: if it learns the real pairs beyond shuffled ones, the pairs are right and the
program's model is what cannot fit; if it memorizes both alike, the pairs carry nothing.

Only a float input and a float output with one row per sample qualify (a token model's
ids and a structured output keep the program's model)."""

from __future__ import annotations

import math

import torch
from torch import nn

from ..recorder import Recorder
from ..tensors import tensors_in

WIDTH = 256
MAX_FEATURES = 65_536  # flattened input features per sample a reference network takes


def replaced_output(rec: Recorder, args, kwargs, out):
    """The model's output, or the reference network's in its place (the first element of
    a tuple, as a model that also returns its attention or contributions gives it)."""
    if not rec.iv.reference_model:
        return out
    if isinstance(out, tuple) and out and isinstance(out[0], torch.Tensor):
        first = replaced_output(rec, args, kwargs, out[0])
        return out if first is out[0] else (first, *out[1:])
    if not isinstance(out, torch.Tensor):
        return out
    xs = [t for t in (tensors_in(args) or tensors_in(kwargs)) if t.is_floating_point()]
    if not xs or not out.is_floating_point() or out.dim() < 1:
        return out
    x = xs[0]
    if x.dim() < 1 or x.shape[0] != out.shape[0] or x.shape[0] < 1:
        return out
    net = _net(rec, x, out)
    if net is None:
        return out
    with rec.quiet():
        y = net(x.detach().reshape(x.shape[0], -1).float()).reshape(out.shape)
        return _in_range(y, rec.iv_state.reference_net_range).to(out.dtype)


def _range(out: torch.Tensor) -> str:
    """What values the model's own output takes, for the stand-in to take the same: a
    loss that expects probabilities (BCELoss after a sigmoid, NLLLoss after log_softmax)
    rejects or misreads a raw score. `simplex`: rows of non-negative values summing to
    one; `log_simplex`: their logarithms; `unit`: each value in [0, 1]; `` otherwise."""
    o = out.detach().float()
    if not torch.isfinite(o).all():
        return ""
    if o.dim() >= 2 and o.shape[-1] > 1:
        if (o >= 0).all() and torch.allclose(o.sum(-1), torch.ones(()), atol=1e-3):
            return "simplex"
        if (o <= 0).all() and torch.allclose(o.logsumexp(-1), torch.zeros(()), atol=1e-3):
            return "log_simplex"
    # a few raw scores near zero may all fall in [0, 1] by chance; many do not
    if o.numel() >= 8 and (o >= 0).all() and (o <= 1).all():
        return "unit"
    return ""


def _in_range(y: torch.Tensor, kind: str) -> torch.Tensor:
    if kind == "simplex":
        return y.softmax(-1)
    if kind == "log_simplex":
        return y.log_softmax(-1)
    if kind == "unit":
        return y.sigmoid()
    return y


def step(rec: Recorder) -> None:
    """The reference network's update, after each of the program's steps."""
    opt = rec.iv_state.reference_net_opt
    if opt is None:
        return
    with rec.quiet():
        if not rec.iv_state.holdout_in_step:  # never from the held-out batch (batch.py)
            opt.step()
        opt.zero_grad(set_to_none=True)


def _net(rec: Recorder, x: torch.Tensor, out: torch.Tensor) -> nn.Module | None:
    st = rec.iv_state
    fin, fout = math.prod(x.shape[1:]), math.prod(out.shape[1:])
    if st.reference_net is not None:
        return st.reference_net if st.reference_net_shape == (fin, fout) else None
    if not fin or not fout or fin > MAX_FEATURES:
        return None
    with rec.quiet(), torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)  # the program's random stream is left as it was
        net = nn.Sequential(
            nn.Linear(fin, WIDTH), nn.ReLU(), nn.Linear(WIDTH, WIDTH), nn.ReLU(),
            nn.Linear(WIDTH, fout),
        )  # fmt: skip
        st.reference_net_opt = torch.optim.Adam(net.parameters(), lr=rec.iv.reference_lr or 1e-3)
    st.reference_net, st.reference_net_shape = net, (fin, fout)
    st.reference_net_range = _range(out)
    return net
