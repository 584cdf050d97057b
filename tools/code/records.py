"""Records the code index hands out: symbols, imports, call sites, assignments, skipped
files and the training loops found in a repo.

Invariants: every `file` is relative to the indexed root with forward slashes; every
line is 1-based and every range inclusive; `symbol` is a qualified name inside its file
(`Net.forward`, `outer.inner`, `<module>`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

MODULE_SYMBOL = "<module>"

SymbolKind = Literal["module", "class", "function", "method"]

AssignmentKind = Literal[
    "module_attribute",  # self.fc = nn.Linear(...) inside an nn.Module
    "loss",  # nn.CrossEntropyLoss()
    "optimizer",  # torch.optim.Adam(...)
    "scheduler",  # torch.optim.lr_scheduler.StepLR(...)
    "data_loader",  # DataLoader(...)
    "model",  # an instance of a repo class that subclasses nn.Module
    "other",
]


class Symbol(BaseModel):
    file: str
    qualname: str  # `Net.forward`; `<module>` for the file itself
    kind: SymbolKind
    line_start: int  # the first decorator's line when decorated
    line_end: int
    def_line: int  # the `def`/`class` line
    params: list[str] = Field(default_factory=list)  # functions and methods, `self` included
    bases: list[str] = Field(default_factory=list)  # classes: base expressions as written
    decorators: list[str] = Field(default_factory=list)
    is_nn_module: bool = False  # classes: subclasses torch.nn.Module, directly or via the repo

    @property
    def id(self) -> str:
        return f"{self.file}:{self.qualname}"

    @property
    def name(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]


class ImportBinding(BaseModel):
    """One name an import statement binds: `F` -> `torch.nn.functional`."""

    file: str
    line: int
    name: str  # the local name
    target: str  # the dotted thing it stands for; relative imports keep their dots
    symbol: str = MODULE_SYMBOL


class CallSite(BaseModel):
    file: str
    line: int
    symbol: str  # the enclosing symbol
    callee: str  # as written, dotted: `F.softmax`, `self.crit`, `model(x).argmax`
    resolved: str  # through the imports: `torch.nn.functional.softmax`
    args: list[str] = Field(default_factory=list)  # positional argument texts
    kwargs: dict[str, str] = Field(default_factory=dict)  # keyword -> value text


class Assignment(BaseModel):
    """An assignment whose value is a call: `self.fc = nn.Linear(4, 2)`."""

    file: str
    line: int
    symbol: str
    target: str  # `self.fc`, `opt`, `model.fc`
    callee: str
    resolved: str
    kind: AssignmentKind
    text: str  # the source line(s) of the statement, stripped


class SkippedFile(BaseModel):
    file: str
    reason: str  # "not UTF-8", "binary", "larger than 2 MB", "unreadable: ..."


class ParseIssue(BaseModel):
    """A file tree-sitter parsed with errors: indexed as far as it could, but noted."""

    file: str
    line: int  # the first error's line
    message: str


class LoopEvent(BaseModel):
    """A training-relevant call inside a loop, possibly reached through a helper."""

    kind: Literal["backward", "step", "zero_grad", "scheduler_step"]
    file: str
    line: int
    symbol: str
    text: str
    via: list[str] = Field(default_factory=list)  # helper calls that lead to it: `train.py:42`


class TrainingLoop(BaseModel):
    """A loop (or a function without a loop) that reaches `.backward(` and an optimizer
    step in the same body, directly or through helpers it calls."""

    file: str
    symbol: str
    kind: Literal["loop", "function"]
    line_start: int
    line_end: int
    header: str  # `for xb, yb in loader:` or the `def` line
    events: list[LoopEvent]
    enclosing_loops: list[int] = Field(default_factory=list)  # header lines, innermost last
