"""`Site`: where one construct of the training path lives (an optimizer, a loss, a model
class, a training loop), as the planner and the reading tools want it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel
from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import last
from torch_investigate.tools.code.records import Assignment, CallSite

SiteKind = Literal[
    "loss",
    "optimizer",
    "scheduler",
    "data_loader",
    "model",  # an instantiation of a repo nn.Module class
    "model_class",
    "training_loop",
    "backward",
    "optimizer_step",
    "zero_grad",
    "evaluation",
    "entry_point",
    "module_attribute",
    "other",
]


class Site(BaseModel):
    kind: SiteKind
    file: str
    line: int
    symbol: str
    name: str  # `Adam`, `CrossEntropyLoss`, `cross_entropy`, `Net`, `train_one_epoch`
    target: str = ""  # the name it is bound to, when assigned: `optimizer`, `self.crit`
    text: str = ""  # the source line, stripped
    line_end: int | None = None  # for classes and loops

    @property
    def ref(self) -> str:
        return f"{self.file}:{self.line}"

    @classmethod
    def from_assignment(cls, a: Assignment) -> Site:
        kind: SiteKind = a.kind if a.kind != "other" else "other"
        return cls(
            kind=kind,
            file=a.file,
            line=a.line,
            symbol=a.symbol,
            name=last(a.resolved),
            target=a.target,
            text=a.text,
        )

    @classmethod
    def from_call(cls, kind: SiteKind, call: CallSite, lines: list[str], node: Node | None) -> Site:
        text = lines[call.line - 1].strip() if 0 < call.line <= len(lines) else ""
        if node is not None and not text:
            text = sx.flat(node)
        return cls(
            kind=kind,
            file=call.file,
            line=call.line,
            symbol=call.symbol,
            name=last(call.resolved),
            text=text,
        )
