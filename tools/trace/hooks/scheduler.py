"""Learning-rate schedulers (`LRScheduler` and `ReduceLROnPlateau`): steps, steps before
the first optimizer step, and the learning rate after each step."""

from __future__ import annotations

import functools
import sys

from ..recorder import Recorder
from ..tensors import frame_dict, in_repo, repo_frame
from .built_at import construction_frame
from .guard import Undo, guarded
from .optimizer import lr_of

MAX_LRS = 400


def install(rec: Recorder, undo: Undo) -> None:
    from torch.optim import lr_scheduler as L

    base = L.LRScheduler
    orig_init = base.__init__

    @functools.wraps(orig_init)  # a CLI or config system reads the signature
    def init(self, *a, **k):
        if rec.sched_init == 0 and getattr(self, "_ti_created", None) is None:
            object.__setattr__(self, "_ti_created", construction_frame(self))
        rec.sched_init += 1
        try:
            orig_init(self, *a, **k)  # the program's own call
        finally:
            rec.sched_init -= 1

    base.__init__ = init
    undo.append(lambda: setattr(base, "__init__", orig_init))
    for cls in (base, L.ReduceLROnPlateau):
        orig_step = cls.__dict__["step"]

        def step(self, *a, __orig=orig_step, **k):
            out = __orig(self, *a, **k)  # the program's own call
            if not rec.busy and rec.sched_init == 0 and rec.status == "running":
                # the program's own line calls step(), or a framework does (Lightning)
                by_program = in_repo(sys._getframe(1).f_code.co_filename)
                _record_scheduler(rec, self, by_program)
            return out

        cls.step = step
        undo.append(lambda c=cls, o=orig_step: setattr(c, "step", o))


@guarded
def _record_scheduler(rec: Recorder, sched, by_program: bool) -> None:
    frame = repo_frame()
    s = rec.schedulers.get(id(sched))
    if s is None:
        s = rec.schedulers[id(sched)] = {
            "class": type(sched).__name__,
            "frame": frame_dict(getattr(sched, "_ti_created", None)),
            "step_frame": frame_dict(frame),
            "stepped_by_program": by_program,
            "steps": 0,
            "before_first_optimizer_step": 0,
            "lr_after": [],
            "step_sites": {},
        }
    s["steps"] += 1
    if by_program and frame is not None:
        # each program line that steps this scheduler, with its count: one schedule
        # advanced from two places runs at the sum of their rates
        sites = s["step_sites"]
        key = f"{frame[0]}:{frame[1]}"
        if key in sites or len(sites) < 8:
            sites[key] = sites.get(key, 0) + 1
    if rec.n_steps == 0:
        s["before_first_optimizer_step"] += 1
    opt = getattr(sched, "optimizer", None)
    if opt is not None and len(s["lr_after"]) < MAX_LRS:
        s["lr_after"].append(lr_of(opt.param_groups[0]))
    rec.event("scheduler", frame)
