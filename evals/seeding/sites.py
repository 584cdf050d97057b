"""Where the training path lives, as nodes an operator can edit: the trained model and
its class, the optimizer call, the training loss call and its arguments, evaluation
forwards, the statement that binds a name before a use.

Every lookup goes through the code index and resolved PyTorch names; none knows a
template. A lookup that cannot decide returns nothing, and the operator skips the site.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import Assignment, Symbol, TrainingLoop
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.extract import base_call
from torch_investigate.tools.code.names import (
    CONTAINER_LAYERS,
    PARAMETERIZED_LAYERS,
    is_optimizer,
    last,
    loss_class_kind,
    loss_function_kind,
    torch_layer,
)

GRAD_OFF = ("no_grad", "inference_mode")


@dataclass
class LossCall:
    file: str
    node: Node  # the call: `criterion(logits, yb)`, `F.cross_entropy(out, y)`
    kind: str  # `cross_entropy`, `bce_logits`, `mse`, ...
    loop: TrainingLoop | None  # the training loop holding it, if any
    ctor: Node | None = None  # the loss object's construction, for object losses
    ctor_file: str = ""

    @property
    def prediction(self) -> Node | None:
        return sx.argument(self.node, 0, "input")

    @property
    def target(self) -> Node | None:
        return sx.argument(self.node, 1, "target")


@dataclass
class TrainedModel:
    """A model an optimizer trains: `Adam(model.parameters())` -> `model`."""

    expr: str  # `model`, `net`, `probe`
    optimizer: Node | None  # the optimizer construction call; None: a hand-written update
    file: str  # where the optimizer is built (or the model, without one)
    binding: Assignment | None  # where the model object is made
    ctor: Node | None  # the call that made it
    cls: Symbol | None  # its repo class, when it is one

    @property
    def ctor_name(self) -> str:
        if self.binding is None:
            return ""
        return last(self.binding.resolved)


# ---- assignments and calls -----------------------------------------------------------


def call_at(
    src: Source, file: str, line: int, want: Callable[[str], bool] | None = None
) -> Node | None:
    for call, node in src.calls(file):
        if call.line == line and (want is None or want(call.resolved)):
            return node
    return None


def assignment_call(src: Source, a: Assignment) -> Node | None:
    """The call on the right of an assignment record (`Net()` in `model = Net().to(d)`)."""
    for stmt in src.statements_at(a.file, a.line):
        for node in sx.descendants(stmt):
            if node.type == "assignment":
                right = node.child_by_field_name("right")
                left = node.child_by_field_name("left")
                if right is not None and right.type == "call" and left is not None:
                    if sx.flat(left) == a.target:
                        return base_call(right)
    return None


def layer_attributes(src: Source, cls: Symbol) -> list[tuple[Assignment, Node]]:
    """`self.x = nn.Layer(...)` in cls.__init__, in source order, with their calls."""
    init = f"{cls.qualname}.__init__"
    found = []
    for a in src.index.assignments:
        if a.file == cls.file and a.symbol == init and a.target.startswith("self."):
            node = assignment_call(src, a)
            if node is not None:
                found.append((a, node))
    return sorted(found, key=lambda p: p[0].line)


def parameterized_attributes(src: Source, cls: Symbol) -> list[tuple[Assignment, Node]]:
    """The layer attributes of cls that own parameters (not `nn.ReLU()`, not a loss)."""
    found = []
    for a, node in layer_attributes(src, cls):
        if a.kind != "module_attribute":
            continue
        layer = torch_layer(a.resolved)
        if layer is None or layer in PARAMETERIZED_LAYERS or layer in CONTAINER_LAYERS:
            found.append((a, node))
    return found


def method(src: Source, cls: Symbol, name: str) -> tuple[Symbol, Node] | None:
    symbol = src.index.symbol(f"{cls.file}:{cls.qualname}.{name}")
    if symbol is None:
        return None
    node = src.index.definition(symbol)
    return (symbol, node) if node is not None else None


def body_statements(fn: Node) -> list[Node]:
    """A function's statements, without its docstring and comments."""
    body = sx.function_body(fn)
    stmts = [c for c in (body.named_children if body else []) if c.type != "comment"]
    if stmts and stmts[0].type == "expression_statement":
        first = stmts[0].named_children
        if len(first) == 1 and first[0].type == "string":
            stmts = stmts[1:]
    return stmts


def returns(fn: Node) -> list[Node]:
    """The value expressions of fn's own `return` statements."""
    found = []
    for node in sx.descendants(fn.child_by_field_name("body") or fn):
        if node.type == "return_statement" and node.named_children:
            found.append(node.named_children[0])
    return found


# ---- the trained model ---------------------------------------------------------------------


def optimizer_calls(src: Source) -> list[tuple[str, Node]]:
    found = []
    for site in src.index.optimizer_sites():
        node = call_at(src, site.file, site.line, is_optimizer)
        if node is not None:
            found.append((site.file, node))
    return found


def trained_models(src: Source, *, with_optimizer: bool = False) -> list[TrainedModel]:
    """Models an optimizer is built for; then, unless `with_optimizer`, repo models
    called inside a training loop that no optimizer names (hand-written updates)."""
    models = []
    for file, opt in optimizer_calls(src):
        params = sx.argument(opt, 0, "params")
        if params is None or params.type != "call" or sx.method_name(params) != "parameters":
            continue
        receiver = sx.receiver(params)
        expr = sx.dotted(receiver)
        if expr is None:
            continue
        binding = model_binding(src, file, opt, expr)
        models.append(_model(src, expr, opt, file, binding))
    if with_optimizer:
        return models
    known = {m.expr for m in models}
    for a in src.index.assignments:
        if a.kind != "model" or a.target in known:
            continue
        called = any(c.callee == a.target for lp in src.loops() for c, _ in src.loop_calls(lp))
        if called:
            known.add(a.target)
            models.append(_model(src, a.target, None, a.file, a))
    return models


def _model(
    src: Source, expr: str, opt: Node | None, file: str, binding: Assignment | None
) -> TrainedModel:
    ctor = assignment_call(src, binding) if binding else None
    cls = None
    if binding is not None and binding.kind == "model":
        cls = src.index.find_class(binding.callee, binding.file)
    return TrainedModel(expr, opt, file, binding, ctor, cls)


def model_binding(src: Source, file: str, use: Node, expr: str) -> Assignment | None:
    """Where `expr` was made: the closest earlier assignment in the same file, else a
    model construction of that name anywhere (a model passed into a trainer)."""
    line = sx.line(use)
    same_file = [
        a
        for a in src.index.assignments
        if a.file == file and a.target == expr and a.line <= line and _makes_module(a)
    ]
    if same_file:
        return max(same_file, key=lambda a: a.line)
    short = expr.rsplit(".", 1)[-1]
    anywhere = [a for a in src.index.assignments if a.target == short and a.kind == "model"]
    return anywhere[0] if len(anywhere) == 1 else None


def _makes_module(a: Assignment) -> bool:
    return a.kind == "model" or torch_layer(a.resolved) is not None


def trained_classes(src: Source) -> list[Symbol]:
    """The repo nn.Module classes of the trained models, once each."""
    found: dict[str, Symbol] = {}
    for m in trained_models(src):
        if m.cls is not None:
            found.setdefault(m.cls.id, m.cls)
    return list(found.values())


# ---- losses -----------------------------------------------------------------------------------


def loss_objects(src: Source) -> dict[tuple[str, str, str], tuple[str, Node | None]]:
    """(file, scope, bound name) -> (loss kind, constructor call) for `crit = nn.XLoss()`;
    scope "" holds the file-wide fallback (an attribute set in __init__, a global)."""
    found = {}
    for a in src.index.assignments:
        kind = loss_class_kind(a.resolved)
        if a.kind == "loss" and kind is not None:
            made = (kind, assignment_call(src, a))
            found[(a.file, a.symbol, a.target)] = made
            found.setdefault((a.file, "", a.target), made)
    return found


def loss_calls(src: Source) -> Iterator[LossCall]:
    objects = loss_objects(src)
    loops = src.loops()
    for call, node in src.calls():
        kind = loss_function_kind(call.resolved)
        ctor = None
        if kind is None:
            obj = objects.get((call.file, call.symbol, call.callee)) or objects.get(
                (call.file, "", call.callee)
            )
            if obj is None:
                continue
            kind, ctor = obj
        loop = next((lp for lp in loops if src.in_loop(lp, call.file, call.line)), None)
        yield LossCall(call.file, node, kind, loop, ctor, call.file)


def training_losses(src: Source) -> list[LossCall]:
    """The first loss call of each training loop (the one backward reaches)."""
    seen: set[int] = set()
    found = []
    for lc in loss_calls(src):
        if lc.loop is None or id(lc.loop) in seen:
            continue
        seen.add(id(lc.loop))
        found.append(lc)
    return found


# ---- bindings -----------------------------------------------------------------------------------


@dataclass
class Binding:
    """Where a name gets the value a use reads: after `stmt`, or at the top of `block`
    (a for-loop target or a function parameter)."""

    stmt: Node | None = None
    block_first: Node | None = None  # the first statement of the body that binds it


def base_name(node: Node) -> str | None:
    """`yb` for `yb`, `yb.float()`, `yb.reshape(-1)`, `y[idx]`."""
    current = node
    while True:
        if current.type == "identifier":
            return sx.text(current)
        if current.type == "call":
            current = sx.receiver(current)  # type: ignore[assignment]
        elif current.type == "subscript":
            current = current.child_by_field_name("value")  # type: ignore[assignment]
        elif current.type == "attribute" and current.child_by_field_name("object") is not None:
            obj = current.child_by_field_name("object")
            if obj is not None and obj.type == "identifier" and sx.text(obj) == "self":
                return None
            current = obj  # type: ignore[assignment]
        else:
            return None
        if current is None:
            return None


def binding_before(use: Node, name: str) -> Binding | None:
    """The last statement binding `name` before `use`, looking outward through blocks."""
    child = sx.statement_of(use)
    while child is not None and child.parent is not None:
        block = child.parent
        for stmt in reversed(_before(block, child)):
            if name in _bound_names(stmt):
                return Binding(stmt=stmt)
        owner = block.parent if block.type == "block" else None
        if owner is not None and owner.type == "for_statement":
            left = owner.child_by_field_name("left")
            if left is not None and name in _target_names(left):
                return Binding(block_first=_first_statement(block))
        if owner is not None and owner.type == "function_definition":
            if name in sx.parameter_names(owner):
                return Binding(block_first=_first_statement(block))
            return None
        if block.type == "module":
            return None
        child = sx.statement_of(owner) if owner is not None else None
    return None


def _before(block: Node, child: Node) -> list[Node]:
    out = []
    for c in block.named_children:
        if c.id == child.id:
            break
        if c.type != "comment":
            out.append(c)
    return out


def _first_statement(block: Node) -> Node | None:
    stmts = [c for c in block.named_children if c.type != "comment"]
    if stmts and stmts[0].type == "expression_statement":
        inner = stmts[0].named_children
        if len(inner) == 1 and inner[0].type == "string" and len(stmts) > 1:
            return stmts[1]
    return stmts[0] if stmts else None


def _bound_names(stmt: Node) -> set[str]:
    """Names a statement binds, including inside its own with/if/try blocks."""
    if stmt.type in ("with_statement", "if_statement", "try_statement"):
        names: set[str] = set()
        for node in sx.descendants(stmt):
            if node.type == "expression_statement":
                names |= _bound_names(node)
        return names
    if stmt.type != "expression_statement":
        return set()
    names = set()
    for node in stmt.named_children:
        while node.type == "assignment":
            left = node.child_by_field_name("left")
            if left is not None:
                names |= _target_names(left)
            right = node.child_by_field_name("right")
            if right is None:
                break
            node = right
    return names


def _target_names(target: Node) -> set[str]:
    if target.type == "identifier":
        return {sx.text(target)}
    if target.type in ("pattern_list", "tuple_pattern", "list_pattern", "parenthesized_expression"):
        names: set[str] = set()
        for c in target.named_children:
            names |= _target_names(c)
        return names
    return set()


# ---- evaluation --------------------------------------------------------------------------------


def under_grad_off(node: Node) -> bool:
    """Inside `with torch.no_grad()` / `inference_mode()`, or a function decorated so."""
    for anc in sx.ancestors(node):
        if anc.type == "with_statement" and any(
            g in sx.text(anc).split(":", 1)[0] for g in GRAD_OFF
        ):
            return True
        if anc.type == "function_definition":
            if any(any(g in sx.flat(d) for g in GRAD_OFF) for d in sx.decorators_of(anc)):
                return True
    return False


def in_module_method(src: Source, file: str, line: int) -> bool:
    qualname = src.index.enclosing_symbol(file, line)
    cls = qualname.rsplit(".", 1)[0] if "." in qualname else None
    if cls is None:
        return False
    symbol = src.index.symbol(f"{file}:{cls}")
    return symbol is not None and symbol.kind == "class" and symbol.is_nn_module
