"""Stage 2, preprocessing fitted anew on the evaluation data: two objects built by the same
class, the second given part of the first one's fitted state (`num_stats=train.num_stats`)
but not the rest, which its `__init__` then fits on its own rows (`cat_maps=None` ->
`build_category_maps(rows)`): the rest is passed too (`cat_maps=train.cat_maps`)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Finding


def shared_state(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file in sorted(src.files, key=lambda name: name != f.file):
        built: dict[str, tuple[str, Node]] = {}  # variable -> (class name, its call)
        for node in sx.descendants(src.unit(file).tree.root_node, into_scopes=True):
            left = node.child_by_field_name("left") if node.type == "assignment" else None
            call = node.child_by_field_name("right") if left is not None else None
            fn = sx.call_function(call) if call is not None and call.type == "call" else None
            if left is None or call is None or fn is None or left.type != "identifier":
                continue
            cls = sx.text(fn).rsplit(".", 1)[-1]
            _, keywords = sx.call_args(call)
            for var, (other_cls, _) in built.items():
                if other_cls != cls or not any(sx.text(v) == f"{var}.{k}" for k, v in keywords.items()):  # fmt: skip
                    continue
                for param in _fitted_when_none(ctx, cls):
                    if param not in keywords:
                        yield Candidate(
                            f"`{sx.flat(call)[:60]}` given {param}={var}.{param} ({at(file, call)}): evaluation reuses what was fitted on the training data instead of fitting its own",
                            (src.set_kwarg(file, call, param, f"{var}.{param}", anchor=True),),
                        )
            built[sx.text(left)] = (cls, call)


def _fitted_when_none(ctx: FixContext, cls: str) -> list[str]:
    """`__init__` parameters of the repo class `cls` that default to None and are stored
    as the attribute of the same name, fitted when not given (`self.p = p or fit(...)`,
    `self.p = fit(...) if p is None else p`)."""
    symbol = ctx.source.index.find_class(cls)
    node = ctx.source.index.definition(symbol) if symbol is not None else None
    out: list[str] = []
    for fn in sx.descendants(node, into_scopes=True) if node is not None else []:
        name = fn.child_by_field_name("name") if fn.type == "function_definition" else None
        params = fn.child_by_field_name("parameters") if name is not None else None
        if name is None or sx.text(name) != "__init__" or params is None:
            continue
        nones = [
            sx.text(n) for p in params.named_children
            if p.type == "default_parameter" and (n := p.child_by_field_name("name")) is not None
            and sx.text(p.child_by_field_name("value") or p) == "None"
        ]  # fmt: skip
        for a in sx.descendants(fn):
            left = a.child_by_field_name("left") if a.type == "assignment" else None
            right = a.child_by_field_name("right") if left is not None else None
            if left is None or right is None or not sx.text(left).startswith("self."):
                continue
            attr = sx.text(left).removeprefix("self.")
            if attr in nones and right.type in ("boolean_operator", "conditional_expression") and attr in {sx.text(n) for n in sx.descendants(right) if n.type == "identifier"}:  # fmt: skip
                out.append(attr)
    return out
