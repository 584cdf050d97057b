"""Stage 3: shapes, axes and what the forward computes from its input."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at, fixer
from torch_investigate.agent.fix.mechanical.edits import (
    drop_argument,
    module_names,
    rebound,
    removal,
    remove_transform,
    unwrap_call,
    upstream_transforms,
)
from torch_investigate.agent.fix.mechanical.loss import loss_calls_at
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Finding

# ops whose `dim` picks the axis they reduce or normalize over
DIM_OPS = frozenset(
    {"softmax", "log_softmax", "normalize", "mean", "sum", "argmax", "max", "min", "std", "var",
     "logsumexp", "norm", "cumsum", "prod", "amax", "amin"}
)  # fmt: skip
UNIT_AXIS = frozenset({"unsqueeze", "view", "reshape"})
ACTIVATIONS = frozenset(
    {"relu", "sigmoid", "tanh", "softplus", "gelu", "elu", "leaky_relu", "relu6", "silu", "softmax", "log_softmax"}
)  # fmt: skip
ACTIVATION_MODULES = frozenset(
    {"ReLU", "Sigmoid", "Tanh", "Softplus", "GELU", "ELU", "LeakyReLU", "ReLU6", "SiLU", "Softmax", "LogSoftmax"}
)  # fmt: skip


@fixer(
    "broadcast_mismatch",
    "prediction and target of one shape: a unit axis added to the target removed, or the "
    "prediction reshaped to the target's shape",
)
def broadcast_mismatch(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    pairs: list[tuple[str, Node, Node]] = []
    for lc in loss_calls_at(ctx, f):
        if lc.prediction is not None and lc.target is not None:
            pairs.append((lc.file, lc.prediction, lc.target))
    if not pairs:  # a hand-written loss: `squared_error(model(x), y)`
        for file, line in ctx.places(f):
            for call in ctx.calls_on(file, line):
                positional, _ = sx.call_args(call)
                if len(positional) == 2 and any(
                    n.type == "call" for n in sx.descendants(positional[0])
                ) | (positional[0].type == "call"):
                    pairs.append((file, positional[0], positional[1]))
    for file, pred, target in pairs:
        if (
            target.type == "call"
            and sx.method_name(target) in UNIT_AXIS
            and sx.receiver(target) is not None
        ):
            inner = sx.receiver(target)
            assert inner is not None
            yield Candidate(
                f"loss target `{sx.flat(target)}` -> `{sx.flat(inner)}` ({at(file, target)}): no unit axis to broadcast",
                (src.replace(file, target, sx.text(inner), anchor=True),),
            )
        text = f"{src.operand(pred)}.reshape({src.operand(target)}.shape)"
        yield Candidate(
            f"loss input `{sx.flat(pred)[:60]}` -> `{text[:80]}` ({at(file, pred)}): prediction and target match element by element",
            (src.replace(file, pred, text, anchor=True),),
        )
    yield from _unit_axis_operands(ctx, f)


def _unit_axis_operands(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    """A hand-written loss term (`err = target.unsqueeze(-1) - pred`): the operand of an
    arithmetic operation at the finding's place that gains a unit axis (`.unsqueeze(k)`,
    `x[:, None]`) taken as it is, so the two operands meet element by element."""
    src = ctx.source
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        for op in [stmt, *sx.descendants(stmt)]:
            if op.type != "binary_operator" or sx.line(op) != line:
                continue
            for side in ("left", "right"):
                operand = op.child_by_field_name(side)
                inner = _without_unit_axis(operand) if operand is not None else None
                if operand is not None and inner is not None:
                    yield Candidate(
                        f"`{sx.flat(operand)[:60]}` -> `{sx.flat(inner)[:60]}` ({at(file, operand)}): no unit axis to broadcast against the other operand",
                        (src.replace(file, operand, sx.text(inner), anchor=True),),
                    )


def _without_unit_axis(node: Node) -> Node | None:
    """x for `x.unsqueeze(k)` and `x[:, None]` / `x[..., None]`, else None."""
    if node.type == "call" and sx.method_name(node) == "unsqueeze":
        return sx.receiver(node)
    if node.type == "subscript":
        value = node.child_by_field_name("value")
        index = [c for c in node.named_children if c is not value and c.type != "comment"]
        if value is not None and any(c.type == "none" for c in index):
            return value
    return None


def _dim_node(call: Node) -> Node | None:
    positional, keywords = sx.call_args(call)
    if "dim" in keywords:
        return keywords["dim"]
    recv = sx.receiver(call)
    is_method = recv is not None and not sx.text(recv).startswith(("torch", "F", "nn"))
    index = 0 if is_method else 1
    return positional[index] if len(positional) > index else None


@fixer(
    "wrong_dimension",
    "the op reduces (or normalizes) over the feature axis instead of the batch axis: "
    "`dim=0` -> `dim=-1` (or `dim=1`)",
)
def wrong_dimension(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, call in ctx.calls_at(f):
        fn = sx.call_function(call)
        name = sx.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
        dim = _dim_node(call)
        if name not in DIM_OPS or dim is None or sx.number(dim) != 0:
            continue
        for value in ("-1", "1"):
            yield Candidate(
                f"`{sx.flat(call)[:80]}` over dim {value} instead of 0 ({at(file, call)}): each sample on its own",
                (src.replace(file, dim, value, anchor=True),),
            )


@fixer(
    "reshape_scramble",
    "the batch axis kept in place: a reshape that moved it removed, or a transpose put "
    "before the reshape of a time-major tensor",
)
def reshape_scramble(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    yield from _reshape_as_permute(ctx, f)
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        reshapes = [c for c in sx.calls_in(stmt) if sx.method_name(c) in ("reshape", "view")]
        if (
            rebound(stmt) is not None
            and reshapes
            and "transpose" in sx.text(stmt)
            or (rebound(stmt) is not None and "permute" in sx.text(stmt))
        ):
            yield removal(ctx, file, stmt, "the samples stay in their rows")
        for call in reshapes:
            recv = sx.receiver(call)
            if recv is None or "transpose" in sx.text(recv) or "permute" in sx.text(recv):
                continue
            text = f"{src.operand(recv)}.transpose(0, 1)"
            yield Candidate(
                f"`{sx.flat(recv)}` -> `{text}` before `.{sx.method_name(call)}` ({at(file, call)}): samples first, then flattened",
                (src.replace(file, recv, text, anchor=True),),
            )


def permutation_of(x_shape: list[int], out_shape: list[int]) -> list[int] | None:
    """The axis order that turns x_shape into out_shape when a reshape only reorders the
    sizes, as the `reshape_as_permute` intervention reads it (tools/trace/ops.py)."""
    if len(x_shape) != len(out_shape) or x_shape == out_shape or sorted(x_shape) != sorted(out_shape):  # fmt: skip
        return None
    free = list(range(len(x_shape)))
    perm = []
    for size in out_shape:
        j = next(j for j in free if x_shape[j] == size)
        free.remove(j)
        perm.append(j)
    return perm


def _reshape_as_permute(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    """The reshape the run saw reorder its input's sizes ((B, N, 3) -> (B, 3, N)) written
    as the permute the intervention ran: the axes move, the data stays with its sample."""
    src = ctx.source
    for obs in f.evidence:
        shapes = obs.values.get("shapes")
        where = obs.where
        if not (isinstance(shapes, list) and len(shapes) == 2 and where and where.file and where.line):  # fmt: skip
            continue
        perm = permutation_of(list(shapes[0]), list(shapes[1]))
        if perm is None or where.file not in src.files:
            continue
        for call in ctx.calls_on(where.file, where.line):
            recv = sx.receiver(call)
            if sx.method_name(call) not in ("reshape", "view") or recv is None:
                continue
            text = f"{src.operand(recv)}.permute({', '.join(map(str, perm))})"
            yield Candidate(
                f"`{sx.flat(call)[:60]}` -> `{text[:60]}` ({at(where.file, call)}): the axes reordered, each sample's values kept together",
                (src.replace(where.file, call, text, anchor=True),),
            )


@fixer(
    "output_ignores_input",
    "the statement that discards the forward's input (multiplies it by zero, replaces it "
    "with a constant) removed; a result the forward computed and never used returned in "
    "place of the earlier value it was computed from",
)
def output_ignores_input(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    yield from remove_transform(ctx, f, "the output depends on the input again")
    yield from upstream_transforms(ctx, f, "the output depends on the input again")
    yield from _unused_result(ctx, f)


def _unused_result(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    """In the function at the finding's place, a local assigned and never read again
    (`encoded = self.encoder(tokens)`) whose value was computed, through the locals
    before it, from a local the return statement reads (`cls`, via `tokens`): the return
    reads the computed one instead (`cls[:, 0]` -> `encoded[:, 0]`)."""
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        fn = stmt if stmt is not None and stmt.type == "function_definition" else (sx.enclosing_function(stmt) if stmt else None)  # fmt: skip
        body = fn.child_by_field_name("body") if fn is not None else None
        if body is None:
            continue
        stmts = [s for s in body.named_children if s.type != "comment"]
        ret = stmts[-1] if stmts and stmts[-1].type == "return_statement" else None
        if ret is None:
            continue
        sources: dict[str, set[str]] = {}  # local -> the locals its value came from
        for s in stmts[:-1]:
            a = s.named_children[0] if s.type == "expression_statement" and s.named_children else None  # fmt: skip
            left = a.child_by_field_name("left") if a is not None and a.type == "assignment" else None  # fmt: skip
            right = a.child_by_field_name("right") if a is not None else None
            if left is None or right is None or left.type != "identifier":
                continue
            read = _identifiers(right)
            came = set(read) | {x for r in read for x in sources.get(r, set())}
            sources[sx.text(left)] = came
        returned = _identifiers(ret)
        for name, came in sources.items():
            if name in returned or any(name in _identifiers(s) for s in stmts if s.start_byte > _assigned_at(stmts, name)):  # fmt: skip
                continue
            for old in sorted(returned & came & set(sources)):
                uses = [n for n in sx.descendants(ret) if n.type == "identifier" and sx.text(n) == old and _is_read(n)]  # fmt: skip
                yield Candidate(
                    f"the forward returns from `{old}` where it computed `{name}` from it and never used it ({at(file, ret)})",
                    tuple(
                        ctx.source.replace(file, n, name, anchor=i == 0) for i, n in enumerate(uses)
                    ),
                )


def _assigned_at(stmts: list[Node], name: str) -> int:
    """The start of the last statement that assigns `name` (a plain `name = ...`)."""
    at_byte = -1
    for s in stmts:
        a = s.named_children[0] if s.type == "expression_statement" and s.named_children else None
        left = a.child_by_field_name("left") if a is not None and a.type == "assignment" else None
        if left is not None and sx.text(left) == name:
            at_byte = s.start_byte
    return at_byte


def _is_read(n: Node) -> bool:
    p = n.parent
    return not (p is not None and p.type == "attribute" and p.child_by_field_name("attribute") == n)


def _identifiers(node: Node) -> set[str]:
    """Names read in node (attribute names and keywords aside)."""
    out = set()
    for n in [node, *sx.descendants(node)]:
        p = n.parent
        if n.type != "identifier" or not _is_read(n):
            continue
        if p is not None and p.type == "keyword_argument" and p.child_by_field_name("name") == n:
            continue
        out.add(sx.text(n))
    return out


@fixer(
    "activation_misuse",
    "the output activation that cannot produce the targets' range removed (the last "
    "layer's output is returned as it is)",
)
def activation_misuse(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, line in ctx.places(f):
        for call in ctx.calls_on(file, line):
            fn = sx.call_function(call)
            name = sx.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
            if name in ACTIVATIONS:
                operand = unwrap_call(call, module_names(src, file))
                if operand is not None:
                    yield Candidate(
                        f"`{sx.flat(call)[:80]}` -> `{sx.flat(operand)[:60]}` ({at(file, call)}): the output keeps its full range",
                        (src.replace(file, call, sx.text(operand), anchor=True),),
                    )
            elif (
                name in ACTIVATION_MODULES
                and call.parent is not None
                and call.parent.type == "argument_list"
            ):
                last = [c for c in call.parent.named_children if c.type != "comment"][-1]
                if last.id == call.id:
                    yield drop_argument(ctx, file, call, "the output keeps its full range")
