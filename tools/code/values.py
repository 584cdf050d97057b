"""The values the flow analysis passes around: where an expression is evaluated
(`EvalContext`), an expression in its context (`Value`), what it denotes (`Obj`) and where
a traced value comes from (`Origin`), plus the tables of value-keeping operations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.names import last
from torch_investigate.tools.code.records import Symbol

# Tensor methods whose result is the same values (reshaped, moved or cast).
KEEP_VALUE_METHODS = frozenset(
    {
        "view",
        "view_as",
        "reshape",
        "reshape_as",
        "squeeze",
        "unsqueeze",
        "flatten",
        "contiguous",
        "permute",
        "transpose",
        "t",
        "to",
        "cuda",
        "cpu",
        "float",
        "double",
        "half",
        "bfloat16",
        "type",
        "type_as",
        "clone",
        "detach",
        "clamp",
        "clamp_min",
        "clamp_max",
        "expand",
        "expand_as",
        "requires_grad_",
    }
)
KEEP_VALUE_FUNCTIONS = frozenset(
    {"squeeze", "unsqueeze", "flatten", "reshape", "transpose", "permute", "clamp", "clip", "clone"}
)
# Methods that return the object itself (modules and optimizers).
SAME_OBJECT_METHODS = frozenset(
    {
        "to",
        "cuda",
        "cpu",
        "float",
        "double",
        "half",
        "bfloat16",
        "train",
        "eval",
        "requires_grad_",
        "apply",
    }
)
STEP_BUDGET = 400
SHARED_BUDGET = 1500  # steps of one top-level objects() question, nested ones included
MAX_CALL_DEPTH = 6
MAX_IMPORT_HOPS = 6
MAX_NESTING = 24  # objects() questions asked while answering another

ObjKind = Literal["function", "class", "instance", "external", "module", "unknown"]
OriginKind = Literal["call", "module_call", "element", "param", "name", "attribute", "expr"]


@dataclass(eq=False)
class EvalContext:
    """Where an expression is evaluated: a file, a function (None: module level), the
    arguments bound by the call we came through, and the instance behind `self`."""

    unit: FileUnit
    scope: Node | None
    bound: dict[str, Value] = field(default_factory=dict)
    self_obj: Obj | None = None
    depth: int = 0

    @property
    def key(self) -> tuple[object, ...]:
        return (
            self.unit.file,
            self.scope.id if self.scope is not None else 0,
            tuple(sorted((k, v.node.id) for k, v in self.bound.items())),
            self.self_obj.key if self.self_obj is not None else None,
        )


@dataclass(eq=False)
class Value:
    node: Node
    frame: EvalContext
    index: tuple[int, ...] = ()  # a tuple position still to select: `a, b = f()` -> b: (1,)

    @property
    def key(self) -> tuple[object, ...]:
        return (self.node.id, self.index, self.frame.key)

    @property
    def file(self) -> str:
        return self.frame.unit.file

    @property
    def line(self) -> int:
        return sx.line(self.node)

    @property
    def text(self) -> str:
        return sx.flat(self.node)


@dataclass(eq=False)
class Obj:
    """What an expression denotes when used as a callee or receiver."""

    kind: ObjKind
    unit: FileUnit | None = None
    node: Node | None = None  # def/class node for repo functions, classes and instances
    symbol: Symbol | None = None
    resolved: str = ""  # external: dotted name (`torch.nn.CrossEntropyLoss`)
    ctor: Value | None = None  # instances: the call that made it
    self_obj: Obj | None = None  # bound methods: the instance
    expr: Value | None = None  # unknown: the expression we could not resolve

    @property
    def key(self) -> tuple[object, ...]:
        node_id = self.node.id if self.node is not None else 0
        ctor_id = self.ctor.node.id if self.ctor is not None else 0
        return (self.kind, node_id, self.resolved, ctor_id)

    @property
    def name(self) -> str:
        if self.symbol is not None:
            return self.symbol.name
        return last(self.resolved) if self.resolved else ""


@dataclass(eq=False)
class Origin:
    """A terminal of `trace`: a value that was not followed further."""

    kind: OriginKind
    value: Value
    path: list[Value]  # the start first, the terminal last
    module: Obj | None = None  # module_call: the called module object

    @property
    def node(self) -> Node:
        return self.value.node
