"""Run a caller-written probe snippet inside the traced process (the LLM's `run_probe`).

The snippet runs once, after the first optimizer step (or the first backward when the
program never steps), with the program's own objects in scope:
    model      the top-level model called from the training loop
    args, kwargs  the first training batch as passed to the model
    inputs     the first tensor of that batch
    target     the target of the first training loss call (or None)
    loss_fn    loss_fn(prediction, target) with the program's loss function and options
    optimizer  the first optimizer
    params     the tensors the training updates (module parameters and plain tensors the
               loss reaches), for programs without an nn.Module or an optimizer
    trace      a few counters recorded so far
    torch, nn, F
It may set `result` to anything printable; stdout is captured. The program stops after it.
"""

from __future__ import annotations

import contextlib
import io
import traceback

import torch
import torch.nn.functional as F
from torch import nn

from .recorder import Recorder, StopTracing

MAX_OUT = 8000


def run_user_probe(rec: Recorder, code: str) -> dict:
    model = next(iter(rec.models.values()), None)
    args, kwargs = rec.first_batch or ((), {})
    inputs = next((a for a in args if isinstance(a, torch.Tensor)), None)
    fn = rec.loss_fn

    def loss_fn(prediction, target):
        if fn is None:
            raise RuntimeError("no loss function call was observed on the training path")
        func, kw, extra = fn
        return func(prediction, target, *extra, **kw)

    scope = {
        "model": model,
        "args": args,
        "kwargs": kwargs,
        "inputs": inputs,
        "target": rec.first_target,
        "loss_fn": loss_fn,
        "optimizer": next(iter(rec.optimizers.values()), None),
        "params": [
            r.ref
            for r in rec.params.values()
            if (r.executed or r.module_class or r.reached) and r.ref.requires_grad
        ],
        "trace": {"steps": rec.n_steps, "losses": rec.losses[:50], "counts": dict(rec.counts)},
        "torch": torch,
        "nn": nn,
        "F": F,
        "result": None,
    }
    out = io.StringIO()
    error = None
    with rec.quiet(), contextlib.redirect_stdout(out):
        try:
            exec(compile(code, "<probe>", "exec"), scope)  # noqa: S102 - the caller's probe, inside the sandbox
        except Exception as e:  # noqa: BLE001 - the probe's error is its result
            error = f"{type(e).__name__}: {e}\n" + "".join(traceback.format_exc(limit=4))[-1500:]
    text = out.getvalue()
    result = scope.get("result")
    return {
        "stdout": text[:MAX_OUT]
        + (f"\n[... {len(text) - MAX_OUT} characters cut]" if len(text) > MAX_OUT else ""),
        "result": None if result is None else repr(result)[:MAX_OUT],
        "error": error,
    }


def probe_and_stop(rec: Recorder) -> None:
    """Run the configured probe once, then end the program (its result is the trace's)."""
    rec.probe_result = run_user_probe(rec, rec.cfg.probe_code or "")
    rec.status = "stopped"
    rec.stop_reason = "stopped after the probe ran"
    raise StopTracing(rec.stop_reason)
