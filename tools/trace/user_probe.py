"""Run a caller-written probe snippet inside the traced process (the LLM's `run_probe`).

The snippet runs once, after the first optimizer step (or the first backward when the
program never steps), with the program's own objects in scope, all from the first
training call (the model and the inputs it received belong together):
    model      the model that received the first training batch
    args, kwargs  that batch as passed to the model
    inputs     the first tensor of that batch
    target     the target of the first training loss call (or None)
    loss_fn    the program's loss: its own function when the loss passed to backward
               was computed in a function of the training script that takes more than a
               prediction and a target (loss_function(recon, x, mu, logvar)); else
               loss_fn(prediction, target, *more, **options) with the loss function, the
               options and the extra arguments of its first call (`more` replaces them)
    optimizer  the first optimizer
    params     the tensors the training updates (module parameters and plain tensors the
               loss reaches), for programs without an nn.Module or an optimizer
    program    the training script's own module (`sys.modules["__main__"]`): its loss
               functions, helpers and globals, e.g. program.loss_function(...)
    trace      a few counters recorded so far
    torch, nn, F
It may set `result` to anything printable; stdout is captured. The program stops after it.
"""

from __future__ import annotations

import contextlib
import io
import sys
import traceback
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from .recorder import Recorder, StopTracing

MAX_OUT = 8000


def run_user_probe(rec: Recorder, code: str) -> dict:
    model = (
        rec.first_model if rec.first_model is not None else next(iter(rec.models.values()), None)
    )
    args, kwargs = rec.first_batch or ((), {})
    inputs = next((a for a in args if isinstance(a, torch.Tensor)), None)
    fn = rec.loss_fn

    def loss_fn(prediction, target, *more, **options):
        if fn is None:
            raise RuntimeError("no loss function call was observed on the training path")
        func, kw, extra = fn
        return func(prediction, target, *(more or extra), **{**kw, **options})

    program = sys.modules.get("__main__")
    own = _program_loss(program, rec.loss_maker)

    scope = {
        "model": model,
        "args": args,
        "kwargs": kwargs,
        "inputs": inputs,
        "target": rec.first_target,
        "loss_fn": own or loss_fn,
        "optimizer": next(iter(rec.optimizers.values()), None),
        "program": program,
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
        "loss_fn": _signature(own) if own is not None else None,
    }


def _signature(fn) -> str:
    code = fn.__code__
    return f"{fn.__name__}({', '.join(code.co_varnames[: code.co_argcount])})"


def _program_loss(program, frame):
    """The training script's own function that computed the loss, when it takes more than
    a prediction and a target (a VAE's loss_function(recon_x, x, mu, logvar))."""
    if program is None or frame is None:
        return None
    fn = getattr(program, frame[2], None)
    code = getattr(fn, "__code__", None)
    if code is None or code.co_argcount <= 2:
        return None
    if not Path(code.co_filename).as_posix().endswith("/" + frame[0].lstrip("/")):
        return None
    return fn


def probe_and_stop(rec: Recorder) -> None:
    """Run the configured probe once, then end the program (its result is the trace's)."""
    rec.probe_result = run_user_probe(rec, rec.cfg.probe_code or "")
    rec.status = "stopped"
    rec.stop_reason = "stopped after the probe ran"
    raise StopTracing(rec.stop_reason)
