"""In-process probes run on the traced model with the program's own batch.

Each probe runs with the tracer quiet, under no_grad, with every module's train/eval
flag and the RNG state restored afterwards, so the program continues as if nothing
happened (BatchNorm running statistics are untouched in eval mode).
"""

from __future__ import annotations

import torch
from torch import nn

from .recorder import Recorder
from .tensors import map_tensors, tensors_in


class Restore:
    """Restores every module's train/eval flag and the RNG state on exit."""

    def __init__(self, module: nn.Module) -> None:
        self.modes = [(m, m.training) for m in module.modules()]
        self.rng = torch.get_rng_state()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for m, training in self.modes:
            m.training = training
        torch.set_rng_state(self.rng)
        return False


def _rows(outs: list[torch.Tensor], b: int) -> list[torch.Tensor]:
    # NaN/inf compare as a sentinel: a forward that returns NaN for every input ignores it
    return [
        torch.nan_to_num(o.detach().float(), nan=-1234.5, posinf=1e30, neginf=-1e30)
        for o in outs
        if o.dim() >= 1 and o.shape[0] == b and o.is_floating_point()
    ]


def _roll(t: torch.Tensor, b: int) -> torch.Tensor:
    return t.roll(1, dims=0) if t.dim() >= 1 and t.shape[0] == b else t


def forward_probes(rec: Recorder, module: nn.Module, args: tuple, kwargs: dict) -> dict:
    """Per-sample independence and input dependence, by rolling the batch by one row.

    A model whose samples are independent satisfies f(roll(x)) == roll(f(x)); one
    that ignores its input satisfies f(roll(x)) == f(x).
    """
    tensors = tensors_in(args) or tensors_in(kwargs)
    if not tensors or tensors[0].dim() == 0:
        return {"status": "skipped", "reason": "no tensor input"}
    b = int(tensors[0].shape[0])
    if b < 2:
        return {"status": "skipped", "reason": "batch of one sample"}

    def roll(t: torch.Tensor) -> torch.Tensor:
        return _roll(t, b)

    with rec.quiet(), Restore(module), torch.no_grad():
        try:
            module.eval()
            out_a = _rows(tensors_in(module(*args, **kwargs)), b)
            out_a2 = _rows(tensors_in(module(*args, **kwargs)), b)
            if not out_a:
                return {"status": "skipped", "reason": "no per-sample floating output"}
            if any(
                a.shape != c.shape or not torch.allclose(a, c, rtol=1e-5, atol=1e-6)
                for a, c in zip(out_a, out_a2)
            ):
                return {
                    "status": "skipped",
                    "reason": "the forward is not deterministic in eval mode (stateful or random)",
                }
            r_args, r_kwargs = map_tensors(args, roll), map_tensors(kwargs, roll)
            inputs_differ = any(
                not torch.equal(t, roll(t))
                for t in tensors_in(args) + tensors_in(kwargs)
                if t.dim() >= 1 and t.shape[0] == b
            )
            out_b = _rows(tensors_in(module(*r_args, **r_kwargs)), b)

            # batch-wide ops that are permutation-equivariant (a mean or norm over the batch,
            # softmax over dim 0, attention across samples) survive the roll test; changing
            # one sample and watching the others catches them
            def swap0(t: torch.Tensor) -> torch.Tensor:
                if t.dim() >= 1 and t.shape[0] == b:
                    t = t.clone()
                    t[0] = t[1]
                return t

            out_p = _rows(
                tensors_in(module(*map_tensors(args, swap0), **map_tensors(kwargs, swap0))), b
            )
        except Exception as e:  # noqa: BLE001 - a probe that cannot run is reported, not raised
            return {"status": "error", "reason": f"{type(e).__name__}: {e}"[:300]}
        if len(out_b) != len(out_a) or any(a.shape != c.shape for a, c in zip(out_a, out_b)):
            return {"status": "skipped", "reason": "output shapes change when rows are reordered"}
        return _verdict(b, inputs_differ, out_a, out_b, out_p)


def _verdict(b: int, inputs_differ: bool, out_a: list, out_b: list, out_p: list) -> dict:
    """Compare the outputs: as run (a), rows rolled by one (b), sample 0 changed (p)."""
    scale = max(float(a.abs().max()) for a in out_a) + 1e-12
    change = max(float((bb - a).abs().max()) for a, bb in zip(out_a, out_b))
    cross = max(float((bb - _roll(a, b)).abs().max()) for a, bb in zip(out_a, out_b))
    if len(out_p) == len(out_a) and all(a.shape == p.shape for a, p in zip(out_a, out_p)):
        cross = max(cross, max(float((p[1:] - a[1:]).abs().max()) for a, p in zip(out_a, out_p)))
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
        "ignores_input": inputs_differ and change / scale < 1e-7,
        "rows_identical": rows_identical,
    }
