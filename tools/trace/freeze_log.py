"""The program's `requires_grad_` calls as call paths (its own frames, outermost first): the
path that froze each tensor still frozen, and the unfreezes that changed nothing. A
`requires_grad_(True)` that runs once the optimizer has stepped, on tensors that already
train, is a training phase the program meant to open (the end of a warm-up) whose
unfreeze reached the wrong part: the frozen part it was meant for stays frozen. A tensor
still frozen at the end that holds exactly the values an initializer of `torch.nn.init`
last wrote into it (hooks/init_values.py) was never trained nor loaded (no optimizer step,
`load_state_dict` or copy moved it): the model learns on a fixed random part."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from .tensors import frame_dict, in_repo, relpath

MAX_STACK = 8  # program frames kept per call path, innermost last
MAX_PATHS = 50  # distinct unfreezing call paths kept
MAX_INITIALIZED = 100_000  # tensors whose initializer's values are kept

Stack = tuple[tuple[str, int, str], ...]


@dataclass
class FreezeLog:
    froze: dict[int, Stack] = field(default_factory=dict)  # tensor id -> the path that froze it
    # unfreezing path -> (optimizer steps when it first ran, ids of the tensors it found
    # training, ids of those it set training)
    unfroze: dict[Stack, tuple[int, set[int], set[int]]] = field(default_factory=dict)
    # tensor id -> fingerprint of the values an initializer last wrote into it
    initialized: dict[int, tuple] = field(default_factory=dict)

    def initialize(self, t) -> None:
        if id(t) in self.initialized or len(self.initialized) < MAX_INITIALIZED:
            self.initialized[id(t)] = fingerprint(t)

    def record(self, t, requires_grad: bool, steps: int) -> None:
        """Called before the program's own call: `t.requires_grad` is still the old value."""
        stack = program_stack()
        if not requires_grad:
            if stack:
                self.froze[id(t)] = stack
            else:
                self.froze.pop(id(t), None)
            return
        self.froze.pop(id(t), None)
        if not stack or not t.is_leaf:
            return
        if stack not in self.unfroze and len(self.unfroze) >= MAX_PATHS:
            return
        _, same, changed = self.unfroze.setdefault(stack, (steps, set(), set()))
        (same if t.requires_grad else changed).add(id(t))

    def idle(self) -> list[tuple[Stack, int, int]]:
        """(path, first step, tensors) of the unfreezes that first ran once the optimizer
        had stepped and found every tensor they reached already training."""
        return [
            (stack, step, len(same))
            for stack, (step, same, changed) in self.unfroze.items()
            if step > 0 and same and not changed
        ]


def fingerprint(t) -> tuple:
    """What tells a tensor's values apart from any it was given later (a load, a step):
    shape, dtype and two sums taken in double precision."""
    d = t.detach().double()
    return (tuple(t.shape), str(t.dtype), float(d.sum()), float(d.abs().sum()))


def _holds(t, values: tuple) -> bool:
    try:
        return fingerprint(t) == values
    except (RuntimeError, ValueError):  # a lazy parameter never materialized
        return False


def program_stack() -> Stack:
    """The program's own frames of the current call (the tracer's and libraries' left out)."""
    frames = []
    f = sys._getframe(1)
    while f is not None and len(frames) < MAX_STACK:
        if in_repo(f.f_code.co_filename):
            frames.append((relpath(f.f_code.co_filename), f.f_lineno, f.f_code.co_name))
        f = f.f_back
    return tuple(reversed(frames))


def serialize(log: FreezeLog, params: list[dict], records: dict) -> dict:
    """The paths that froze the parameters still frozen at the end (by name), the idle
    unfreezes, when any parameter stays frozen (otherwise nothing is left to explain), and
    which of the frozen ones still hold their initializer's values (`records`: id -> the
    recorder's record of the parameter, `.ref` the tensor)."""
    frozen = {
        p["name"]: [frame_dict(f) for f in log.froze[p["id"]]]
        for p in params
        if not p["requires_grad"] and p["id"] in log.froze
    }
    idle = [
        {"stack": [frame_dict(f) for f in stack], "first_step": step, "tensors": n}
        for stack, step, n in log.idle()
    ]
    untrained = [
        p["name"]
        for p in params
        if p["name"] in frozen
        and p["id"] in log.initialized
        and p["id"] in records
        and _holds(records[p["id"]].ref, log.initialized[p["id"]])
    ]
    return {"frozen": frozen, "idle_unfreezes": idle if frozen else [], "untrained": untrained}
