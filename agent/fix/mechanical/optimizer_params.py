"""Stage 6: which parameters an optimizer is given (`optimizer_missing_params`): the
whole model's, the part a copied line left out, or the layers that replaced the ones it
was built over."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at, fixer
from torch_investigate.agent.fix.mechanical.edits import move_after
from torch_investigate.agent.fix.mechanical.optimizer import optimizer_ctors
from torch_investigate.evals.seeding import sites
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.models import parameterized_submodules
from torch_investigate.tools.code.names import last
from torch_investigate.tools.records import Finding


@fixer(
    "optimizer_missing_params",
    "the optimizer built from every parameter of the trained model "
    "(`model.parameters()` for a sub-module's or a hand-picked list)",
)
def optimizer_missing_params(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    yield from _copied_params(ctx)
    for file, call in optimizer_ctors(ctx, f):
        params = sx.argument(call, 0, "params")
        if params is None:
            continue
        yield from _unused_groups(ctx, file, call, params)
        root = _model_root(params)
        if root is not None and sx.text(params) != f"{root}.parameters()":
            yield Candidate(
                f"optimizer params `{sx.flat(params)[:80]}` -> `{root}.parameters()` ({at(file, call)})",
                (src.replace(file, params, f"{root}.parameters()", anchor=True),),
            )
        # built before a layer was replaced: rebuild it after the last such assignment
        stmt = sx.statement_of(call)
        later = _layer_swaps_after(ctx, file, stmt, root)
        if later is not None:
            yield move_after(ctx, file, stmt, later, "the optimizer is built after the layer it must train exists")  # fmt: skip


def _copied_params(ctx: FixContext) -> Iterator[Candidate]:
    """Two optimizers built over the same `owner.part.parameters()` (a copied line): the
    later one gets the one parameterized sibling of `part` in the owner's class that no
    optimizer holds (`agent.policy` twice, `agent.critic` in none -> `agent.critic`)."""
    given = [(file, p) for file, c in sites.optimizer_calls(ctx.source) if (p := sx.argument(c, 0, "params")) is not None]  # fmt: skip
    texts = [sx.text(p) for _, p in given]
    seen: set[str] = set()
    for file, params in sorted(given, key=lambda fp: (fp[0], fp[1].start_byte)):
        text = sx.text(params)
        first = text not in seen
        seen.add(text)
        part = sx.receiver(params) if params.type == "call" and sx.method_name(params) == "parameters" else None  # fmt: skip
        if first or part is None or part.type != "attribute":
            continue
        owner, attr = part.child_by_field_name("object"), part.child_by_field_name("attribute")
        if owner is None or attr is None:
            continue
        siblings: set[str] = set()
        for subs in _submodules(ctx).values():
            if sx.text(attr) in subs:
                siblings |= subs - {sx.text(attr)}
        free = sorted(s for s in siblings if not any(f"{sx.text(owner)}.{s}" in t for t in texts))
        if len(free) == 1:
            new = f"{sx.text(owner)}.{free[0]}"
            yield Candidate(
                f"optimizer params `{sx.flat(params)[:60]}` -> `{new}.parameters()` ({at(file, params)}): the line copied from another optimizer now trains the part no optimizer held",
                (ctx.source.replace(file, part, new, anchor=True),),
            )


def _submodules(ctx: FixContext) -> dict[str, set[str]]:
    """Per nn.Module class of the repo, the attributes `__init__` gives a parameterized
    layer, a repo module, or what a repo function builds (`self.critic = mlp(...)`)."""
    a = analysis(ctx.source.index)
    out: dict[str, set[str]] = {}
    for cls in ctx.source.index.module_classes():
        found = set(parameterized_submodules(a, cls))
        located = a.flow.class_node(cls)
        if located is not None:
            unit, node = located
            for attr, bindings in unit.scopes.class_attributes(node).items():
                for b in bindings:
                    fn = sx.call_function(b.value) if b.value is not None and b.value.type == "call" else None  # fmt: skip
                    name = last(unit.resolve_callee(fn)[1]) if fn is not None else ""
                    if name and any(s.kind == "function" for s in ctx.source.index.find_symbols(name)):  # fmt: skip
                        found.add(attr)
        out[cls.qualname] = found
    return out


def _unused_groups(ctx: FixContext, file: str, call: Node, params: Node) -> Iterator[Candidate]:
    """A parameter group built beside the optimizer (`head_group = {"params": ...}`) and
    never read again: given to it with the others (`[*param_groups, head_group]`)."""
    fn = sx.enclosing_function(call)
    if fn is None:
        return
    groups = []
    for node in sx.descendants(fn):
        left = node.child_by_field_name("left") if node.type == "assignment" else None
        right = node.child_by_field_name("right") if left is not None else None
        if left is None or right is None or left.type != "identifier" or right.type != "dictionary":
            continue
        keys = {sx.text(p.child_by_field_name("key") or p).strip("\"'") for p in right.named_children if p.type == "pair"}  # fmt: skip
        reads = [n for n in sx.descendants(fn) if n.type == "identifier" and sx.text(n) == sx.text(left) and n.id != left.id]  # fmt: skip
        if "params" in keys and not reads:
            groups.append(sx.text(left))
    if groups:
        text = f"[*{ctx.source.operand(params)}, {', '.join(groups)}]" if params.type != "list" else f"[{', '.join([sx.text(c) for c in params.named_children] + groups)}]"  # fmt: skip
        yield Candidate(
            f"optimizer params `{sx.flat(params)[:60]}` -> `{text[:80]}` ({at(file, call)}): the group built for it and never passed",
            (ctx.source.replace(file, params, text, anchor=True),),
        )


def _model_root(params: Node) -> str | None:
    """`model` for `model[0].parameters()`, `model.fc.parameters()`, `[model.weight]`,
    `model.head.parameters()`: the object the parameters hang from."""
    node: Node | None = params
    if node is not None and node.type == "list" and node.named_children:
        node = node.named_children[0]
    if (
        node is not None
        and node.type == "call"
        and sx.method_name(node) in ("parameters", "named_parameters")
    ):
        node = sx.receiver(node)
    while node is not None and node.type in ("attribute", "subscript"):
        inner = node.child_by_field_name("object") or node.child_by_field_name("value")
        if inner is None:
            break
        node = inner
    if node is None or node.type != "identifier" or node.id == params.id or (node.parent is not None and node.parent.type == "list"):  # fmt: skip
        return None  # a bare name (`param_groups`, `[w]`): nothing it hangs from
    return sx.text(node)


def _layer_swaps_after(ctx: FixContext, file: str, stmt: Node, root: str | None) -> Node | None:
    """The last statement after stmt, in its block, that assigns an attribute of root."""
    if root is None:
        return None
    found = None
    nxt = stmt.next_named_sibling
    while nxt is not None:
        text = sx.text(nxt)
        if (
            nxt.type == "expression_statement"
            and text.startswith(f"{root}.")
            and "=" in text.split("(")[0]
        ):
            found = nxt
        nxt = nxt.next_named_sibling
    return found
