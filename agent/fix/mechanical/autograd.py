"""Stage 5: the graph from the parameters to the loss, grad mode, and which tensors are
parameters at all."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at, fixer
from torch_investigate.agent.fix.mechanical.edits import mutates, rebound, removal
from torch_investigate.evals.seeding.edits import Edit
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Finding

GRAD_OFF_CALLS = frozenset({"no_grad", "inference_mode", "set_grad_enabled"})
DETACHING_METHODS = frozenset({"detach", "detach_"})
# methods that return a copy of a parameter (a non-leaf tensor) instead of the parameter
COPYING_METHODS = frozenset({"clone", "to", "cuda", "cpu", "double", "float", "half", "type"})


def _places_and_functions(ctx: FixContext, f: Finding) -> list[tuple[str, Node]]:
    """The statements at the finding's places, then the functions around them."""
    stmts, fns = [], []
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        stmts.append((file, stmt))
        fn = sx.enclosing_function(stmt)
        if fn is not None:
            fns.append((file, fn))
    return stmts + fns


@fixer(
    "detached_graph",
    "the graph kept: `.detach()` and `.data` removed where the run saw the graph cut "
    "(detach and .data in the forward kept in the graph)",
)
def detached_graph(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, scope in _places_and_functions(ctx, f):
        for node in [scope, *sx.descendants(scope)]:
            if node.type == "call" and sx.method_name(node) in DETACHING_METHODS:
                inner = sx.receiver(node)
                if inner is not None:
                    yield Candidate(
                        f"`{sx.flat(node)[:80]}` -> `{sx.flat(inner)[:60]}` ({at(file, node)}): the gradient flows back through it",
                        (src.replace(file, node, sx.text(inner), anchor=True),),
                    )
            elif node.type == "attribute" and _is_data_read(node):
                inner = node.child_by_field_name("object")
                assert inner is not None
                yield Candidate(
                    f"`{sx.flat(node)[:80]}` -> `{sx.flat(inner)[:60]}` ({at(file, node)}): the gradient flows back through it",
                    (src.replace(file, node, sx.text(inner), anchor=True),),
                )


def _is_data_read(node: Node) -> bool:
    """`x.data` read as a value (not `p.data = ...`, not `p.data.add_(...)`: updates)."""
    attr = node.child_by_field_name("attribute")
    if attr is None or sx.text(attr) != "data":
        return False
    parent = node.parent
    if parent is not None and parent.type in ("assignment", "augmented_assignment"):
        if parent.child_by_field_name("left") == node:
            return False
    if parent is not None and parent.type == "attribute":  # `p.data.add_`: an update
        return False
    return "grad" not in sx.text(node.parent or node)


def _grad_off(call: Node) -> bool:
    fn = sx.call_function(call)
    name = sx.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
    if name not in GRAD_OFF_CALLS:
        return False
    if name == "set_grad_enabled":
        arg = sx.argument(call, 0, "mode")
        return arg is not None and sx.text(arg) == "False"
    return True


def _unwrap_with(ctx: FixContext, file: str, stmt: Node) -> Edit:
    """A `with torch.no_grad():` statement replaced by its body, dedented to its place."""
    src = ctx.source
    body = stmt.child_by_field_name("body")
    assert body is not None
    outer = src.indent(file, stmt)
    first = body.named_children[0]
    inner = src.indent(file, first)
    lines = src.unit(file).lines[sx.line(first) - 1 : sx.end_line(body)]
    out = [
        outer + ln[len(inner) :]
        if ln.startswith(inner)
        else ln.lstrip() and outer + ln.lstrip() or ln
        for ln in lines
    ]
    data = src.unit(file).source
    start = data.rfind(b"\n", 0, stmt.start_byte) + 1
    end = data.find(b"\n", body.end_byte)
    end = len(data) if end < 0 else end
    return Edit(file, start, end, "\n".join(out), 0)


@fixer(
    "no_grad_training",
    "the training forward out of `torch.no_grad()` / `inference_mode()` / "
    "`set_grad_enabled(False)`: the `with` unwrapped, the decorator removed",
)
def no_grad_training(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        for node in [stmt, *sx.ancestors(stmt)]:
            if node.type == "with_statement" and any(_grad_off(c) for c in _with_calls(node)):
                yield Candidate(
                    f"`{sx.flat(node).split(':')[0]}` removed around its body ({at(file, node)}): the forward records the graph",
                    (_unwrap_with(ctx, file, node),),
                )
                break
            if node.type == "decorated_definition":
                for dec in node.named_children:
                    if dec.type == "decorator" and any(_grad_off(c) for c in sx.calls_in(dec)):
                        yield Candidate(
                            f"decorator `{sx.flat(dec)}` removed ({at(file, dec)}): the function records the graph",
                            (src.delete(file, dec, anchor=True),),
                        )
                    elif dec.type == "decorator" and sx.flat(dec).rsplit(".", 1)[-1] in (
                        "no_grad",
                        "inference_mode",
                    ):
                        yield Candidate(
                            f"decorator `{sx.flat(dec)}` removed ({at(file, dec)}): the function records the graph",
                            (src.delete(file, dec, anchor=True),),
                        )
            if (
                node.type in sx.SCOPE_TYPES
                and node.parent is not None
                and node.parent.type != "decorated_definition"
            ):
                break


def _with_calls(stmt: Node) -> list[Node]:
    clause = next((c for c in stmt.children if c.type == "with_clause"), None)
    if clause is None:
        return []
    return [c for item in clause.named_children for c in sx.calls_in(item)]


@fixer("frozen_parameters", "the statement that turned requires_grad off removed")
def frozen_parameters(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        if stmt is not None and "requires_grad" in sx.text(stmt) and "False" in sx.text(stmt):
            yield removal(ctx, file, stmt, "the parameters train again")
    for file, line in ctx.places(f):  # a transform at the place, never the thaw itself
        stmt = ctx.statement(file, line)
        if stmt is not None and (rebound(stmt) or mutates(stmt)) and not _turns_grad(stmt, "True"):  # fmt: skip
            yield removal(ctx, file, stmt, "the parameters train again")
    # the switch-off elsewhere (a warm-up phase that freezes a part and never thaws it):
    # every statement of the repo that turns requires_grad off, the finding's file first
    files = sorted(ctx.source.files, key=lambda name: name != f.file)
    for file in files:
        for stmt in sx.descendants(ctx.source.unit(file).tree.root_node, into_scopes=True):
            if stmt.type == "expression_statement" and _turns_grad_off(stmt):
                yield removal(ctx, file, stmt, "the parameters train again")


def _turns_grad_off(stmt: Node) -> bool:
    return _turns_grad(stmt, "False")


def _turns_grad(stmt: Node, flag: str) -> bool:
    """`x.requires_grad_(flag)` or `x.requires_grad = flag`."""
    inner = stmt.named_children[0] if stmt.named_child_count == 1 else None
    if inner is None:
        return False
    if inner.type == "assignment":
        left, right = inner.child_by_field_name("left"), inner.child_by_field_name("right")
        return (
            left is not None
            and right is not None
            and sx.text(left).endswith(".requires_grad")
            and sx.text(right) == flag
        )
    if inner.type == "call" and sx.method_name(inner) == "requires_grad_":
        positional, keywords = sx.call_args(inner)
        value = positional[0] if positional else keywords.get("requires_grad")
        return value is not None and sx.text(value) == flag
    return False


@fixer(
    "non_leaf_parameters",
    "the parameter kept as the leaf the optimizer holds: a copy made on top of it "
    "(`.clone()`, `.to(...)`, `.double()`) removed",
)
def non_leaf_parameters(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, call in ctx.calls_at(f):
        recv = sx.receiver(call)
        if recv is None or sx.method_name(call) not in COPYING_METHODS:
            continue
        text = sx.text(recv)
        if "Parameter(" in text or "requires_grad" in text:
            yield Candidate(
                f"`{sx.flat(call)[:80]}` -> `{sx.flat(recv)[:60]}` ({at(file, call)}): the parameter stays a leaf",
                (src.replace(file, call, text, anchor=True),),
            )


@fixer(
    "unregistered_parameters",
    "layers and tensors registered with the module: a plain list -> `nn.ModuleList`, a "
    "plain dict -> `nn.ModuleDict`, a tensor with requires_grad -> `nn.Parameter`",
)
def unregistered_parameters(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        stmt = _container_binding(stmt) or stmt if stmt is not None else None
        assign = stmt.named_children[0] if stmt is not None and stmt.named_children else None
        if assign is None or assign.type != "assignment":
            continue
        right = assign.child_by_field_name("right")
        if right is None:
            continue
        nn, imports = src.torch_expr(file, "torch.nn")
        if right.type in ("list", "list_comprehension") or sx.text(right) == "list()":
            inner = sx.text(right) if right.named_child_count and right.type != "call" else ""
            text = f"{nn}.ModuleList({inner})"
        elif right.type in ("dictionary", "dictionary_comprehension") or sx.text(right) == "dict()":
            inner = sx.text(right) if right.named_child_count and right.type != "call" else ""
            text = f"{nn}.ModuleDict({inner})"
        else:
            text = _as_parameter(right, nn)
            if text is None:
                continue
        yield Candidate(
            f"`{sx.flat(right)[:80]}` -> `{text[:80]}` ({at(file, right)}): model.parameters() holds it",
            (*imports, src.replace(file, right, text, anchor=True)),
        )


def _container_binding(stmt: Node) -> Node | None:
    """For `self.layers.append(...)` (or `self.layers[k] = ...`), the earlier statement of
    the same function that bound `self.layers` to a plain list or dict."""
    container = None
    if stmt.type == "expression_statement" and stmt.named_children:
        inner = stmt.named_children[0]
        if inner.type == "call" and sx.method_name(inner) in ("append", "extend", "insert"):
            container = sx.receiver(inner)
        elif inner.type == "assignment":
            left = inner.child_by_field_name("left")
            if left is not None and left.type == "subscript":
                container = left.child_by_field_name("value")
    fn = sx.enclosing_function(stmt)
    if container is None or fn is None:
        return None
    name = sx.text(container)
    for node in sx.descendants(fn):
        if node.type == "assignment" and node.end_byte <= stmt.start_byte:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and sx.text(left) == name:
                if right.type in ("list", "dictionary") or sx.text(right) in ("list()", "dict()"):
                    return sx.statement_of(node)
    return None


def _as_parameter(right: Node, nn: str) -> str | None:
    """`nn.Parameter(t)` for a tensor expression that asks for gradients itself:
    `t.requires_grad_()`, `torch.randn(..., requires_grad=True)`."""
    if right.type == "call" and sx.method_name(right) == "requires_grad_":
        recv = sx.receiver(right)
        return f"{nn}.Parameter({sx.text(recv)})" if recv is not None else None
    if right.type == "call":
        _, keywords = sx.call_args(right)
        flag = keywords.get("requires_grad")
        if flag is not None and sx.text(flag) == "True":
            text = sx.text(right)
            cut = flag.parent
            assert cut is not None
            start, end = cut.start_byte - right.start_byte, cut.end_byte - right.start_byte
            raw = text.encode("utf-8")
            head = raw[:start].rstrip().rstrip(b",").rstrip()
            inner = (head + raw[end:]).decode("utf-8")
            return f"{nn}.Parameter({inner})"
    return None


@fixer(
    "params_created_in_forward",
    "a layer made in every forward made once: removed when __init__ already makes it, "
    "else built in __init__ as its lazy form (`nn.LazyLinear(out)`), which infers the "
    "input size the forward passed",
)
def params_created_in_forward(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    index = src.index
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        assign = stmt.named_children[0] if stmt is not None and stmt.named_children else None
        if stmt is None or assign is None or assign.type != "assignment":
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is None or right is None or not sx.text(left).startswith("self."):
            continue
        symbol = index.enclosing_symbol(file, line)
        cls = symbol.rsplit(".", 1)[0]
        made_in_init = any(
            a.file == file and a.symbol == f"{cls}.__init__" and a.target == sx.text(left)
            for a in index.assignments
        )
        if made_in_init:
            yield removal(ctx, file, stmt, f"`{sx.text(left)}` is the layer __init__ made, trained across steps")  # fmt: skip
            continue
        lazy = _lazy_form(src, file, right)
        init = _init_end(ctx, file, stmt)
        if lazy is not None and init is not None:
            yield Candidate(
                f"`{sx.flat(stmt)[:80]}` moved into __init__ as `{sx.text(left)} = {lazy}` ({at(file, stmt)})",
                (src.delete(file, stmt), src.insert_after(file, init, f"{sx.text(left)} = {lazy}", anchor=True)),
            )  # fmt: skip


LAZY = {"Linear": "LazyLinear", "Conv1d": "LazyConv1d", "Conv2d": "LazyConv2d", "Conv3d": "LazyConv3d",
        "BatchNorm1d": "LazyBatchNorm1d", "BatchNorm2d": "LazyBatchNorm2d"}  # fmt: skip


def _lazy_form(src, file: str, call: Node) -> str | None:
    """`nn.LazyLinear(out, ...)` for `nn.Linear(x.shape[-1], out, ...)`: a layer whose input
    size the forward reads from its input (a name that is not an attribute of self)."""
    if call.type != "call":
        return None
    fn = sx.call_function(call)
    name = sx.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
    positional, _ = sx.call_args(call)
    if name not in LAZY or not positional or sx.text(positional[0]).startswith("self."):
        return None
    args = call.child_by_field_name("arguments")
    assert args is not None and fn is not None
    rest = (
        sx.text(args)[positional[0].end_byte - args.start_byte :].lstrip().removeprefix(",").strip()
    )
    prefix = sx.text(fn).rsplit(".", 1)[0] + "." if "." in sx.text(fn) else ""
    return f"{prefix}{LAZY[name]}({rest}"


def _init_end(ctx: FixContext, file: str, stmt: Node) -> Node | None:
    """The last statement of the __init__ of the class around stmt."""
    cls = next((a for a in sx.ancestors(stmt) if a.type == "class_definition"), None)
    body = cls.child_by_field_name("body") if cls is not None else None
    for node in body.named_children if body is not None else []:
        fn = node.named_children[-1] if node.type == "decorated_definition" else node
        if fn.type == "function_definition" and sx.function_name(fn) == "__init__":
            block = sx.function_body(fn)
            kids = [k for k in (block.named_children if block else []) if k.type != "comment"]
            return kids[-1] if kids else None
    return None
