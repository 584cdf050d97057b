"""Run the user's program in this process with the tracer installed."""

from __future__ import annotations

import json
import os
import random
import runpy
import signal
import sys
import traceback
from dataclasses import replace

import torch

from . import call_note, grad_check
from .config import Config
from .hooks import install, repo_frame_of
from .mode import TraceMode
from .recorder import Recorder, StopTracing
from .serialize import finish
from .tensors import frame_dict, relpath, repo_frame_in_tb, set_repo_root


def _seed(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import numpy as np

        np.random.seed(seed)
    except ImportError:
        pass


def _run_program(argv: list[str]) -> None:
    if not argv:
        raise ValueError("empty command")
    if argv[0] == "-m":
        module = argv[1]
        sys.argv = [module, *argv[2:]]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    else:
        script = os.path.abspath(argv[0])
        sys.argv = [argv[0], *argv[1:]]
        sys.path.insert(0, os.path.dirname(script))
        runpy.run_path(script, run_name="__main__")


def _run_chain(cfg: Config, rec: Recorder) -> None:
    """The command, then each command its chain runs after it (an evaluation script that
    loads the checkpoint training saved), in this process under the same tracer, as the
    shell runs them: the next only after the one before it ended with code 0. Each starts
    from the seeded random streams a fresh process of the run would have. Training that
    ran past its step budget untraced (to save what the next command reads) is traced
    again from the next command on."""
    for n, argv in enumerate([cfg.argv, *cfg.then]):
        if n and cfg.seed is not None:
            _seed(cfg.seed + cfg.interventions.reseed)
        if n:
            # a new process in the shell: the modules the last one switched are not this one's
            rec.mode_off.clear()
            rec.mode_on.clear()
        if n and rec.status == "budget":
            # the step budget was the training's: the evaluation gets the forwards' anew
            rec.cfg = replace(
                rec.cfg, max_total_steps=10**9, max_forwards=rec.counts["forward"] + 20000
            )
            rec.status = "running"
        try:
            _run_program(argv)
        except SystemExit as e:
            if n == len(cfg.then) or e.code not in (None, 0):
                raise


def run_traced(config: dict) -> int:
    cfg = Config.from_dict(config)
    set_repo_root(os.getcwd())
    rec = Recorder(cfg)
    if cfg.seed is not None:
        _seed(cfg.seed + cfg.interventions.reseed)
    _stop_on_sigterm(rec)
    undo = install(rec)
    for spec in cfg.metric_calls:
        call_note.install_metric(rec, spec)
    if cfg.interventions.note_call:
        call_note.install(rec, cfg.interventions.note_call, cfg.interventions.swap_call)
    if cfg.interventions.grad_check:
        grad_check.install(rec, cfg.interventions.grad_check)
    # untraced runs (the benchmark's baseline) skip the function mode entirely
    mode = TraceMode(rec) if cfg.trace or cfg.map_cuda else None
    code = 0
    if mode is not None:
        mode.__enter__()
    # the program runs in this frame: a crash's traceback starts here
    try:
        _run_chain(cfg, rec)
        if rec.status == "running":
            rec.status = "completed"
    except StopTracing:
        rec.status = "stopped"
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if rec.status == "running":
            rec.status = "completed" if code == 0 else "crashed"
            if code != 0:
                rec.error = _error("SystemExit", f"the program exited with code {e.code}")
    except BaseException as e:  # noqa: BLE001 - any crash of the program is evidence
        code = 1
        rec.status = "crashed"
        rec.error = _crash(e)
        traceback.print_exc()
    finally:
        try:
            if mode is not None:
                mode.__exit__(None, None, None)
        except Exception:  # noqa: BLE001 - the mode stack may have been disturbed by the program
            pass
        for fn in reversed(undo):
            fn()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if rec.status == "budget":  # the training ran on untraced and the chain ended there
        rec.status = "stopped"
    _write(finish(rec), cfg.out)
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def _stop_on_sigterm(rec: Recorder) -> None:
    """The sandbox's wall clock sends SIGTERM: stop the program, but keep the trace."""

    def on_term(signum, frame):
        if rec.status == "running":
            rec.status = "stopped"
            rec.stop_reason = "terminated by the sandbox's wall-clock limit"
            where = None
            f = frame
            while f is not None and where is None:
                where = repo_frame_of(f)
                f = f.f_back
            rec.error = _error("WallClockLimit", rec.stop_reason, repo_frame=where)
            raise StopTracing(rec.stop_reason)

    try:
        signal.signal(signal.SIGTERM, on_term)
    except ValueError:  # not the main thread
        pass


def _error(kind: str, message: str, frames: list | None = None, repo_frame=None) -> dict:
    return {
        "type": kind,
        "message": message,
        "frames": frames or [],
        "repo_frame": frame_dict(repo_frame),
    }


def _crash(e: BaseException) -> dict:
    tb = traceback.extract_tb(e.__traceback__)
    frames = [{"file": relpath(f.filename), "line": f.lineno, "function": f.name} for f in tb]
    return _error(type(e).__name__, str(e)[:2000], frames[-30:], repo_frame_in_tb(tb))


def _write(trace: dict, out: str) -> None:
    tmp = out + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(trace, fh, default=_jsonable)
    os.replace(tmp, out)


def _jsonable(o):
    if isinstance(o, float):
        return None
    if isinstance(o, (set, tuple)):
        return list(o)
    return str(o)
