"""In-process probes run on the traced model with the program's own batch.

Each probe runs with the tracer quiet, under no_grad, with every module's train/eval
flag and the RNG state restored afterwards, so the program continues as if nothing
happened (BatchNorm running statistics are untouched in eval mode).
"""

from __future__ import annotations

import random
import sys

import torch
from torch import nn

from .recorder import Recorder
from .tensors import map_tensors, tensors_in


class Restore:
    """Restores every module's train/eval flag and the RNG states (torch's, Python's and
    numpy's, which the probe seeds for each forward) on exit."""

    def __init__(self, module: nn.Module) -> None:
        self.modes = [(m, m.training) for m in module.modules()]
        self.rng = torch.get_rng_state()
        self.py = random.getstate()
        np = sys.modules.get("numpy")
        self.np = (np, np.random.get_state()) if np is not None else None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for m, training in self.modes:
            m.training = training
        torch.set_rng_state(self.rng)
        random.setstate(self.py)
        if self.np is not None:
            self.np[0].random.set_state(self.np[1])
        return False


def _seed_all(seed: int) -> None:
    """One random state for a probe forward: a forward that draws from Python's `random`
    (a depth chosen per call, as jcjohnson's dynamic net does) or numpy's is then as
    repeatable as one that draws from torch's."""
    torch.manual_seed(seed)
    random.seed(seed)
    np = sys.modules.get("numpy")
    if np is not None:
        np.random.seed(seed)


SEED = 20240  # the RNG state of every probe forward: sampling layers draw the same noise


def _rows(
    outs: list[torch.Tensor], axis: int, n: int, lead: tuple[int, ...], alt: int = 0
) -> list[torch.Tensor]:
    """The per-sample outputs with the sample axis moved first. An output flattened over
    the input's leading axes (a language model's `(T*B, V)`) is unflattened first. An
    output with several axes of the batch's size (a time-first `[T, B, C]` with T == B)
    takes its `alt`-th candidate: the input's sample axis first, then the others in order."""
    rows = []
    for o in outs:
        if not o.is_floating_point() or o.dim() == 0:
            continue
        o = _unflat(o.detach().float(), n, lead)
        candidates = _candidate_axes(o, axis, n)
        if not candidates:
            continue
        ax = candidates[min(alt, len(candidates) - 1)]
        # NaN/inf compare as a sentinel: a forward that returns NaN for every input ignores it
        rows.append(torch.nan_to_num(o.movedim(ax, 0), nan=-1234.5, posinf=1e30, neginf=-1e30))
    return rows


def _candidate_axes(o: torch.Tensor, axis: int, n: int) -> list[int]:
    first = [axis] if o.dim() > axis and o.shape[axis] == n else []
    return first + [d for d in range(o.dim()) if o.shape[d] == n and d not in first]


def _alternatives(outs: list[torch.Tensor], axis: int, n: int, lead: tuple[int, ...]) -> int:
    """How many ways the outputs' sample axis can be read (the most candidates of any)."""
    most = 1
    for o in outs:
        if o.is_floating_point() and o.dim():
            most = max(most, len(_candidate_axes(_unflat(o, n, lead), axis, n)))
    return min(most, 3)


def _unflat(o: torch.Tensor, n: int, lead: tuple[int, ...]) -> torch.Tensor:
    """An output flattened over the input's two leading axes (a language model's
    `(T*B, V)`) with those axes given back."""
    if len(lead) >= 2 and o.shape[0] == lead[0] * lead[1] != n:
        return o.reshape(*lead[:2], *o.shape[1:])
    return o


def _axis_of(t: torch.Tensor, n: int, prefer: int = 0) -> int | None:
    if t.dim() > prefer and t.shape[prefer] == n:
        return prefer
    return next((d for d in range(t.dim()) if t.shape[d] == n), None)


def _along(t: torch.Tensor, axis: int, n: int, op) -> torch.Tensor:
    ax = _axis_of(t, n, axis) if t.dim() >= 1 else None
    return op(t, ax) if ax is not None else t


def _roll_axis(t: torch.Tensor, ax: int) -> torch.Tensor:
    return t.roll(1, dims=ax)


def _swap0_axis(t: torch.Tensor, ax: int) -> torch.Tensor:
    t = t.clone()
    t.select(ax, 0).copy_(t.select(ax, 1))
    return t


def _roll(t: torch.Tensor, b: int) -> torch.Tensor:
    return t.roll(1, dims=0) if t.dim() >= 1 and t.shape[0] == b else t


def _paired_axes(t: torch.Tensor, b: int) -> tuple[int, ...]:
    """Every axis of one entry per sample: the rows, and the columns of a pairwise output
    (a [B, B] similarity of in-batch negatives, attention across the batch)."""
    return (
        tuple(ax for ax in range(t.dim()) if t.shape[ax] == b)
        if t.dim() and t.shape[0] == b
        else ()
    )


def _roll_pairs(t: torch.Tensor, b: int) -> torch.Tensor:
    axes = _paired_axes(t, b)
    return t.roll((1,) * len(axes), dims=axes) if axes else t


def _others(t: torch.Tensor, b: int) -> torch.Tensor:
    """The entries that involve none of sample 0 (rows and pair columns 1:)."""
    index = [slice(None)] * t.dim()
    for ax in _paired_axes(t, b):
        index[ax] = slice(1, None)
    return t[tuple(index)]


def _moved(run, args, kwargs, axis: int, n: int, op) -> list[torch.Tensor]:
    """The raw outputs for inputs with `op` applied along their sample axis."""
    a = map_tensors(args, lambda t: _along(t, axis, n, op))
    k = map_tensors(kwargs, lambda t: _along(t, axis, n, op))
    return run(a, k)


def _axes(x: torch.Tensor, batch: int | None) -> list[int]:
    """The axes of the first input that may hold the samples: the first axis, then one of
    the loader's batch size (time-first sequences put the samples second), then the rest
    of size two or more."""
    axes = [0] if x.shape[0] >= 2 else []
    axes += [d for d in range(1, x.dim()) if batch and x.shape[d] == batch and x.shape[d] >= 2]
    if x.shape[0] < 2 and not axes:
        # one sample first: the later axes are its time steps or features, which the
        # forward relates by design (a single sequence [1, T, C] fed to an RNN)
        return []
    axes += [d for d in range(1, min(x.dim(), 3)) if x.shape[d] >= 2 and d not in axes]
    return axes[:3]


def forward_probes(rec: Recorder, module: nn.Module, args: tuple, kwargs: dict) -> dict:
    """Per-sample independence and input dependence, by rolling the samples by one and by
    changing one sample.

    A model whose samples are independent satisfies f(roll(x)) == roll(f(x)); one that
    ignores its input satisfies f(roll(x)) == f(x). The sample axis is the first axis of
    the input along which that holds (a time-first RNN batch holds its samples on axis
    1; rolling time is not reordering samples). Every forward runs from the same RNG
    state; a forward that still samples differently from another state (a VAE's
    reparameterization) is judged by changing one sample only, since rolled samples would
    meet other noise.
    """
    tensors = tensors_in(args) or tensors_in(kwargs)
    if not tensors or tensors[0].dim() == 0:
        return {"status": "skipped", "reason": "no tensor input"}
    if any(t.layout != torch.strided for t in tensors_in(args) + tensors_in(kwargs)):
        return {
            "status": "not_applicable",
            "reason": "the forward receives a sparse tensor (a graph's adjacency): it ties "
            "the rows together by design, so they are not independent samples to reorder",
        }
    x = tensors[0]
    n = x.shape[0]
    if n >= 2 and any(t.dim() == 2 and tuple(t.shape) == (n, n) for t in tensors[1:]):
        return {
            "status": "not_applicable",
            "reason": f"the forward receives a {n} x {n} matrix beside its {n} rows (a graph's "
            "dense adjacency, a similarity among the samples): it ties the rows together by "
            "design, so they are not independent samples to reorder",
        }
    loader = rec.loaders.get(rec.current_loader or "", {}) if rec.current_loader else {}
    axes = _axes(x, loader.get("batch_size"))
    if not axes:
        return {
            "status": "not_applicable",
            "reason": "the probed training batch holds one sample: there are no other samples for it to influence",
        }
    lead = tuple(int(d) for d in x.shape[:2])

    def run(a, k, seed: int = SEED) -> list[torch.Tensor]:
        _seed_all(seed)
        return tensors_in(module(*a, **k))

    verdicts = []
    with rec.quiet(), Restore(module), torch.no_grad():
        try:
            module.eval()
            plain, again, other = run(args, kwargs), run(args, kwargs), run(args, kwargs, SEED + 1)
            if len(plain) != len(again) or any(
                a.shape != c.shape or not torch.allclose(a, c, rtol=1e-5, atol=1e-6)
                for a, c in zip(plain, again)
            ):
                return {
                    "status": "skipped",
                    "reason": "the forward keeps state between calls (the same input and RNG "
                    "state give different outputs)",
                }
            stochastic = any(
                a.shape == c.shape and not torch.allclose(a, c, rtol=1e-5, atol=1e-6)
                for a, c in zip(plain, other)
            )
            for axis in axes:
                n = int(x.shape[axis])
                if not _rows(plain, axis, n, lead):
                    continue
                inputs_differ = any(
                    not torch.equal(t, _along(t, axis, n, _roll_axis))
                    for t in tensors_in(args) + tensors_in(kwargs)
                    if t.dim() >= 1
                )
                raw_p = _moved(run, args, kwargs, axis, n, _swap0_axis)
                raw_b = plain if stochastic else _moved(run, args, kwargs, axis, n, _roll_axis)
                # an output with another axis of the batch's size (time-first [T, B, C]
                # with T == B) is read along each: the samples are where reordering holds.
                # Only for the input's first candidate axis: a feature axis rolled that
                # reappears as the output's rows is a scramble swapping samples and
                # features (`x.reshape(d, b).t()`), not samples found elsewhere
                tries = _alternatives(plain, axis, n, lead) if axis == axes[0] else 1
                for alt in range(tries):
                    out_a = _rows(plain, axis, n, lead, alt)
                    out_p = _rows(raw_p, axis, n, lead, alt)
                    out_b = _rows(raw_b, axis, n, lead, alt)
                    if len(out_b) != len(out_a) or any(
                        a.shape != c.shape for a, c in zip(out_a, out_b)
                    ):
                        continue
                    v = _verdict(n, inputs_differ, out_a, out_b, out_p, stochastic=stochastic)
                    v["sample_axis"], v["stochastic"] = axis, stochastic
                    if alt:
                        v["output_axis_alternative"] = alt
                    verdicts.append(v)
                    if v["independent"]:
                        # the sample axis is the first one reordering holds on; a batch of
                        # another size along it may still change the outputs
                        if not stochastic and not v["pairwise"]:
                            _split(v, run, args, kwargs, axis, n, out_a, alt)
                        return v
        except Exception as e:  # noqa: BLE001 - a probe that cannot run is reported, not raised
            return {"status": "error", "reason": f"{type(e).__name__}: {e}"[:300]}
    if not verdicts:
        return {"status": "skipped", "reason": "no output holds one row per input sample"}
    return verdicts[0]


def _split(v: dict, run, args, kwargs, axis: int, n: int, out_a: list, alt: int = 0) -> None:
    """Forward the first half of the batch alone: independent samples get the outputs they
    got in the whole batch. A forward that normalizes over the batch (a softmax or a
    statistic over an axis that merged the samples) is unchanged by reordering the rows
    and barely moved by changing one of them, but a batch of another size changes every
    output."""
    half = n // 2
    if half < 1:
        return
    lead = tuple(int(d) for d in _along(tensors_in(args)[0], axis, n, _first(half)).shape[:2])
    try:
        a = map_tensors(args, lambda t: _along(t, axis, n, _first(half)))
        k = map_tensors(kwargs, lambda t: _along(t, axis, n, _first(half)))
        out_h = _rows(run(a, k), axis, half, lead, alt)
    except Exception:  # noqa: BLE001 - a forward that needs its whole batch is not judged by size
        return
    if len(out_h) != len(out_a) or any(h.shape[1:] != a.shape[1:] for a, h in zip(out_a, out_h)):
        return
    dev = max(float((h - a[:half]).abs().max()) for a, h in zip(out_a, out_h))
    v["split_relative"] = dev / v["output_scale"]
    if dev / v["output_scale"] >= 1e-4:  # the bound the reordering test uses
        v["independent"] = False


def _first(k: int):
    return lambda t, ax: t.narrow(ax, 0, k)


def _verdict(
    b: int, inputs_differ: bool, out_a: list, out_b: list, out_p: list, *, stochastic: bool = False
) -> dict:
    """Compare the outputs: as run (a), rows rolled by one (b), sample 0 changed (p). A
    stochastic forward is judged on (p) alone: the other samples must not move, and
    sample 0 must."""
    peak = max(float(a.abs().max()) for a in out_a)
    scale = peak + 1e-12
    same_p = len(out_p) == len(out_a) and all(a.shape == p.shape for a, p in zip(out_a, out_p))
    if stochastic:
        if not same_p:
            return {"status": "skipped", "reason": "output shapes change when one sample changes"}
        change = max(float((p[:1] - a[:1]).abs().max()) for a, p in zip(out_a, out_p))
        cross = 0.0
    else:
        change = max(float((bb - a).abs().max()) for a, bb in zip(out_a, out_b))
        cross = max(float((bb - _roll(a, b)).abs().max()) for a, bb in zip(out_a, out_b))
    # a pairwise output (one column per sample as well as one row) is reordered along
    # both; it mixes samples only if the pairs not involving a sample move with it
    pairwise = (
        not stochastic
        and cross / scale >= 1e-4
        and any(len(_paired_axes(a, b)) > 1 for a in out_a)
        and max(float((bb - _roll_pairs(a, b)).abs().max()) for a, bb in zip(out_a, out_b)) / scale
        < 1e-4
    )
    if pairwise:
        cross = max(float((bb - _roll_pairs(a, b)).abs().max()) for a, bb in zip(out_a, out_b))
    if same_p:
        rest = _others if pairwise else (lambda t, _b: t[1:])
        cross = max(
            cross, max(float((rest(p, b) - rest(a, b)).abs().max()) for a, p in zip(out_a, out_p))
        )
    rows_identical = all(bool((a - a[:1]).abs().max() <= 1e-7 * scale) for a in out_a)
    # which other samples move when only sample 0 changes (a finer look at mixing)
    return {
        "status": "ok",
        "batch_size": b,
        "inputs_differ": inputs_differ,
        "output_scale": scale,
        "change_when_rows_reordered": change,
        "cross_sample_error": cross,
        "cross_sample_relative": cross / scale,
        "independent": cross / scale < 1e-4,
        "pairwise": pairwise,  # samples meet only as pairs (a [B, B] output), by design
        "ignores_input": inputs_differ and change / scale < 1e-7,
        "rows_identical": rows_identical,
        # every output exactly zero: a zero factor (a readout at its zero start) leaves no
        # value that could show whether the forward reads its input
        "all_zero": peak == 0.0,
    }
