"""Does the training loss's gradient carry how the loss changes with the model's output?
A repo helper that computes the loss from the model's output (`angular_loss(v, theta)`,
spec `file:line:i:j`, i the output's position) is rewritten in the run's own copy to go
through `checked(helper)`. On its first training calls, the helper is called again on a
detached copy of the output: the loss's change along random +-1 directions, by central
differences, is set beside what autograd's gradient of the same call predicts. A path
through numpy or `.detach()` changes the loss without a gradient, so the two disagree;
a differentiable helper agrees within rounding. Each extra call starts from the same
random state, and the program's own call and result are untouched."""

from __future__ import annotations

import builtins
import random
import sys

import torch

from .call_note import _rewrite_file, parse
from .recorder import Recorder

NAME = "__torch_investigate_gradcheck__"
MAX_CHECKED = 3  # training calls checked
DIRECTIONS = 6


def install(rec: Recorder, spec: str) -> None:
    parsed = parse(spec)
    if parsed is not None and _rewrite_file(parsed[0], parsed[1], max(parsed[2:]), NAME, ""):
        setattr(builtins, NAME, lambda fn, i=parsed[2]: _checked(rec, fn, i))


def _checked(rec: Recorder, fn, i: int):
    def call(*args, **kwargs):
        out = fn(*args, **kwargs)
        v = args[i] if len(args) > i else None
        if (
            len(rec.grad_checks) < MAX_CHECKED
            and torch.is_grad_enabled()
            and isinstance(v, torch.Tensor)
            and v.requires_grad
            and v.is_floating_point()
            and isinstance(out, torch.Tensor)
            and out.numel() == 1
        ):
            try:
                with rec.quiet():
                    reading = _compare(fn, list(args), kwargs, i)
            except Exception:  # noqa: BLE001 - a helper that cannot be re-run gives no reading
                reading = None
            if reading is not None:
                rec.grad_checks.append(reading)
        return out

    return call


def _compare(fn, args: list, kwargs: dict, i: int) -> list[float] | None:
    """[loss, sum of squared finite differences, sum of squared (difference - autograd)]
    over the directions, or None when the helper is not deterministic."""
    states = _states()
    base = args[i].detach()
    for dtype in (torch.float64, base.dtype):
        try:
            return _directions(fn, args, kwargs, i, base.to(dtype), states)
        except (RuntimeError, TypeError):
            continue  # a helper that mixes the output with float32 weights: as the run had it
    return None


def _directions(fn, args, kwargs, i, x, states) -> list[float] | None:
    def loss_at(point: torch.Tensor, grad: bool = False) -> torch.Tensor:
        _restore(states)
        args[i] = point.requires_grad_(grad)
        return fn(*args, **kwargs).reshape(())

    leaf = x.clone()
    first = loss_at(leaf, grad=True)
    (g,) = torch.autograd.grad(first, leaf, allow_unused=True)
    g = torch.zeros_like(x) if g is None else g.detach()
    with torch.no_grad():
        again = float(loss_at(x.clone()))
        value = float(first.detach())
        tol = 1e-9 if x.dtype == torch.float64 else 1e-5
        if abs(again - value) > tol * (1.0 + abs(value)):
            return None  # the helper draws its own random numbers or keeps state
        scale = float(x.abs().mean()) or 1.0
        eps = scale * (1e-4 if x.dtype == torch.float64 else 1e-2)
        gen = torch.Generator().manual_seed(0)
        fd2 = miss2 = 0.0
        for _ in range(DIRECTIONS):
            d = (torch.randint(0, 2, x.shape, generator=gen) * 2 - 1).to(x.dtype)
            up, down = float(loss_at(x + eps * d)), float(loss_at(x - eps * d))
            fd = (up - down) / (2 * eps)
            ad = float((g * d).sum())
            fd2 += fd * fd
            miss2 += (fd - ad) ** 2
    _restore(states)
    return [value, fd2, miss2]


def _states():
    """The random states a helper may draw from (torch, Python, numpy if loaded)."""
    np = sys.modules.get("numpy")
    return (
        torch.get_rng_state(),
        random.getstate(),
        np.random.get_state() if np is not None else None,
    )


def _restore(states) -> None:
    torch.set_rng_state(states[0])
    random.setstate(states[1])
    np = sys.modules.get("numpy")
    if np is not None and states[2] is not None:
        np.random.set_state(states[2])
