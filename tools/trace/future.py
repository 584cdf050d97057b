"""Does a next-token model read the tokens after each position?

When a training target is the model's own input moved one position along an axis (the
next token of a language model, the next step of a sequence), the output at position t
is scored against input t+1: a model whose output at t depends on inputs after t can
copy its answer (an attention mask that lets every position see the whole sequence, a
bidirectional layer, a normalization over time). The probe runs the model (eval mode, no
grad, the program's RNG state restored) on the batch as given and on a copy whose tokens
from the middle position on are replaced by other tokens of the same batch: a model that
reads only the past gives the same outputs before that position. Forward hooks on every
submodule say which one first lets the later tokens reach the earlier positions.
"""

from __future__ import annotations

import torch
from torch import nn

from .probes import SEED, Restore
from .recorder import Recorder
from .tensors import map_tensors, tensors_in

# Outputs before the cut that move by more than this (relative to the output's scale,
# after two identical forwards agreed to within rounding) depend on the later tokens.
MOVES = 1e-4


# Positions a masked comparison must hold: all equal by chance is then out of reach
# even for two token values (2**-32).
MASKED_MATCHES = 32


def shift_axis(x: torch.Tensor, y: torch.Tensor, by: int = 1) -> int | None:
    """The axis along which `y` (laid out as `x`) is `x` moved `by` positions, comparing
    only the positions an integer target does not mask (negative ids are no classes: an
    `ignore_index` of -1 or -100); with a mask, at least MASKED_MATCHES positions."""
    if x.numel() != y.numel() or x.dim() == 0 or x.is_complex():
        return None
    yy = y.reshape(x.shape)
    for ax in range(x.dim()):
        n = x.shape[ax]
        if n < by + 1:
            continue
        later, target = x.narrow(ax, by, n - by), yy.narrow(ax, 0, n - by)
        if by > 1 and target.numel() < MASKED_MATCHES:
            continue  # too few positions to rule out a match by chance
        keep = (
            target >= 0
            if not target.is_floating_point()
            else torch.ones_like(target, dtype=torch.bool)
        )
        kept = int(keep.sum())
        if kept == 0 or (kept < keep.numel() and kept < MASKED_MATCHES):
            continue
        if torch.equal(later.to(target.dtype)[keep], target[keep]):
            return ax
    return None


def _positions(outs: list[torch.Tensor], x: torch.Tensor, axis: int) -> list[torch.Tensor]:
    """The outputs with one entry per input position along `axis` (that axis moved
    first); an output flattened over the input's two leading axes is unflattened."""
    n = x.shape[axis]
    found = []
    for o in outs:
        if not o.is_floating_point() or o.dim() == 0:
            continue
        o = o.detach().float()
        if x.dim() >= 2 and axis <= 1 and o.shape[0] == x.shape[0] * x.shape[1] != n:
            o = o.reshape(x.shape[0], x.shape[1], *o.shape[1:])
        if o.dim() > axis and o.shape[axis] == n:
            found.append(o.movedim(axis, 0))
    return found


def _moved_before(
    a: list[torch.Tensor], b: list[torch.Tensor], cut: int
) -> tuple[float, float] | None:
    """(the largest change before `cut`, after it), each relative to the output's scale."""
    if len(a) != len(b) or not a or any(p.shape != q.shape for p, q in zip(a, b, strict=True)):
        return None
    scale = max(_largest(p) for p in a) + 1e-12
    before = max(_largest(q[:cut] - p[:cut]) for p, q in zip(a, b, strict=True))
    after = max(_largest(q[cut:] - p[cut:]) for p, q in zip(a, b, strict=True))
    return before / scale, after / scale


def _largest(t: torch.Tensor) -> float:
    return float(t.abs().max()) if t.numel() else 0.0


def future_probe(
    rec: Recorder, module: nn.Module, args: tuple, kwargs: dict, x: torch.Tensor, axis: int
) -> dict:
    n = int(x.shape[axis])
    if n < 4:
        return {"status": "skipped", "reason": f"sequences of {n} positions"}
    cut = n // 2
    g = torch.Generator().manual_seed(SEED)
    flat = x.detach().reshape(-1)
    tail = x.narrow(axis, cut, n - cut)
    changed = x.detach().clone()
    changed.narrow(axis, cut, n - cut).copy_(
        flat[torch.randint(0, flat.numel(), tail.shape, generator=g)]
    )
    if torch.equal(changed, x):
        return {"status": "skipped", "reason": "the batch holds one token value"}

    def swap(t):
        return changed if t is x else t

    seen: list[tuple[str, str, list[torch.Tensor], list[torch.Tensor]]] = []
    names = {id(m): name for name, m in module.named_modules() if name}

    def hook(m, inp, out):
        if id(m) in names:
            seen.append((
                names[id(m)], type(m).__name__,
                _positions(tensors_in(inp), x, axis), _positions(tensors_in(out), x, axis),
            ))  # fmt: skip

    def run(a, k) -> list[torch.Tensor]:
        torch.manual_seed(SEED)
        return _positions(tensors_in(module(*a, **k)), x, axis)

    handles = []
    with rec.quiet(), Restore(module), torch.no_grad():
        try:
            module.eval()
            plain, again = run(args, kwargs), run(args, kwargs)
            if not plain:
                return {"status": "skipped", "reason": "no output holds one entry per position"}
            same = _moved_before(plain, again, n)
            if same is None or same[0] > MOVES * 1e-2:
                return {"status": "skipped", "reason": "the forward is not deterministic"}
            handles = [m.register_forward_hook(hook) for m in module.modules() if id(m) in names]
            run(args, kwargs)
            first = list(seen)
            seen.clear()
            moved = _moved_before(
                plain, run(map_tensors(args, swap), map_tensors(kwargs, swap)), cut
            )
        except Exception as e:  # noqa: BLE001 - a probe that cannot run is reported, not raised
            return {"status": "error", "reason": f"{type(e).__name__}: {e}"[:300]}
        finally:
            for h in handles:
                h.remove()
    if moved is None:
        return {"status": "skipped", "reason": "the output's shape changes with the tokens"}
    before, after = moved
    result = {
        "status": "ok", "time_axis": axis, "length": n, "cut": cut,
        "moved_before": before, "moved_after": after, "sees_future": before > MOVES,
        "model_class": type(module).__name__,
    }  # fmt: skip
    if result["sees_future"]:
        result.update(_first_mixer(first, seen, cut))
    return result


def _first_mixer(plain: list, changed: list, cut: int) -> dict:
    """The submodules that let the later tokens reach the earlier positions: their
    outputs before the cut moved while their inputs there did not, innermost first (a
    forward hook fires when the module's forward ends, after its children's)."""
    mixers = []
    for (name, cls, a_in, a_out), (name2, _, b_in, b_out) in zip(plain, changed, strict=False):
        if name != name2:
            break
        out = _moved_before(a_out, b_out, cut)
        inp = _moved_before(a_in, b_in, cut) if a_in else (0.0, 0.0)
        if out is not None and out[0] > MOVES and inp is not None and inp[0] <= MOVES:
            mixers.append({"module": name, "class": cls})
    return {"mixers": mixers[:8]}
