"""The program's `requires_grad_` calls as call paths (tools/trace/freeze_log.py): what
froze each parameter still frozen, and the unfreezes that found their tensors training."""

from __future__ import annotations

from pydantic import Field

from torch_investigate.tools.tracefile.records import Frame, TraceRecord


class IdleUnfreeze(TraceRecord):
    stack: list[Frame] = Field(default_factory=list)  # the program's frames, outermost first
    first_step: int = 0  # optimizer steps taken when it first ran
    tensors: int = 0  # tensors it set to train that already trained


class FreezeCalls(TraceRecord):
    frozen: dict[str, list[Frame]] = Field(default_factory=dict)  # parameter -> path that froze it
    idle_unfreezes: list[IdleUnfreeze] = Field(default_factory=list)
    # frozen parameters still holding the values their initializer wrote: never trained
    # nor loaded
    untrained: list[str] = Field(default_factory=list)
