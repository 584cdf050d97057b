"""Stage 8: the learning rate and the initialization. These patches are written only when
stages 1-7 are coherent (the guardrail that holds optimization advice back holds these
too; agent/fix/patcher.py checks it)."""

from __future__ import annotations

import math
from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at, fixer
from torch_investigate.agent.fix.mechanical.edits import mutates, removal, remove_transform
from torch_investigate.agent.fix.mechanical.optimizer import optimizer_ctors
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Finding


def _scale(f: Finding) -> float | None:
    """The learning-rate factor the fixed-batch sweep found to fit, nearest to 1."""
    for obs in f.evidence:
        fits = obs.values.get("fits_at")
        if isinstance(fits, list) and fits:
            scales = [float(s) for s in fits]
            return max(scales) if f.category == "lr_too_high" else min(scales)
    return None


def _number(value: float) -> str:
    return f"{value:.6g}" if "e" not in f"{value:.6g}" else f"{value:.0e}".replace("e-0", "e-")


def _lr_edits(ctx: FixContext, f: Finding, scale: float) -> Iterator[Candidate]:
    src = ctx.source
    literals: list[tuple[str, Node]] = []
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        for node in [stmt, *sx.descendants(stmt)]:
            if node.type in ("integer", "float", "unary_operator") and sx.line(node) == line:
                value = sx.number(node)
                parent = node.parent
                if value and value > 0 and (parent is None or parent.type != "unary_operator"):
                    literals.append((file, node))
    for file, node in literals[:1]:
        value = sx.number(node)
        assert value is not None
        new = _number(value * scale)
        yield Candidate(
            f"learning rate {sx.text(node)} -> {new} ({at(file, node)}): x{scale:g}, the step the fixed-batch sweep found to fit",
            (src.replace(file, node, new, anchor=True),),
        )
    for file, call in optimizer_ctors(ctx, f):
        lr = sx.argument(call, None, "lr")
        if lr is None:
            continue
        text = f"{src.operand(lr)} * {scale:g}"
        yield Candidate(
            f"learning rate `{sx.flat(lr)}` -> `{text}` ({at(file, call)}): x{scale:g}, the step the fixed-batch sweep found to fit",
            (src.replace(file, lr, text, anchor=True),),
        )


@fixer("lr_too_high", "the learning rate scaled down to the largest step that fit one fixed batch")
def lr_too_high(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    scale = _scale(f)
    if scale is not None and 0 < scale < 1 and math.isfinite(scale):
        yield from _lr_edits(ctx, f, scale)


@fixer("lr_too_low", "the learning rate scaled up to the smallest step that fit one fixed batch")
def lr_too_low(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    scale = _scale(f)
    if scale is not None and scale > 1 and math.isfinite(scale):
        yield from _lr_edits(ctx, f, scale)


INIT_METHODS = frozenset({"fill_", "zero_", "normal_", "uniform_", "constant_", "copy_"})


def _is_init(stmt: Node) -> bool:
    """A statement that overwrites parameter values in place: an `nn.init.*_` call, a
    `.fill_`/`.zero_`/... on a weight, or a loop or branch made of nothing else."""
    if stmt.type in ("for_statement", "if_statement", "with_statement"):
        leaves = [
            n
            for n in sx.descendants(stmt)
            if n.parent is not None and n.parent.type == "block" and n.type not in ("comment", "pass_statement")
            and n.type not in ("for_statement", "if_statement", "with_statement", "else_clause", "elif_clause")
        ]  # fmt: skip
        return bool(leaves) and all(_is_init(n) for n in leaves)
    if mutates(stmt) is None or stmt.type != "expression_statement":
        return False
    call = stmt.named_children[0]
    if call.type != "call":
        return False
    fn = sx.text(sx.call_function(call) or call)
    return ".init." in f".{fn}" or fn.rsplit(".", 1)[-1] in INIT_METHODS


def _init_statements(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    """Initialization statements at the finding's places, then in the functions around
    them (the model's __init__): each removed, so PyTorch's defaults stay."""
    scopes: list[tuple[str, Node]] = []
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        if _is_init(stmt):
            yield removal(ctx, file, stmt, "the layers keep PyTorch's default initialization")
        fn = stmt if stmt.type == "function_definition" else sx.enclosing_function(stmt)
        if fn is not None:
            scopes.append((file, fn))
    for file, fn in dict.fromkeys(scopes):
        for node in sx.descendants(fn):
            if node.parent is not None and node.parent.type == "block" and _is_init(node):
                if node.type != "for_statement" and any(
                    a.type == "for_statement" and _is_init(a) for a in sx.ancestors(node)
                ):
                    continue
                yield removal(ctx, file, node, "the layers keep PyTorch's default initialization")


@fixer(
    "bad_initialization",
    "the initialization that overwrote PyTorch's defaults removed (parameters "
    "re-initialized with PyTorch's defaults)",
)
def bad_initialization(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    yield from _init_statements(ctx, f)
    yield from remove_transform(ctx, f, "the layers keep PyTorch's default initialization")


@fixer(
    "dead_activations",
    "the initialization that pushed the units into their dead range removed",
)
def dead_activations(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    yield from _init_statements(ctx, f)
