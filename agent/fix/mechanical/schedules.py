"""Stage 6, a scheduler stepped through a mode switch: a callback or wrapper class that
steps it per batch or per epoch by a constructor argument (`interval="step"`), built with
the per-batch default for a schedule counted in epochs."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Finding


def mode_switch(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    """The `scheduler.step()` the run saw sits behind `if self.<mode> == "<a>"` in one
    method of a class, and another method steps the same scheduler behind
    `self.<mode> == "<b>"`: where the class is built without `<mode>`, and `__init__`
    defaults it to "<a>", it is built with `<mode>="<b>"`."""
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        cls = next((a for a in sx.ancestors(stmt) if a.type == "class_definition"), None) if stmt else None  # fmt: skip
        if stmt is None or cls is None:
            continue
        here = _guard(stmt)
        name = cls.child_by_field_name("name")
        if here is None or name is None:
            continue
        attr, now = here
        others = [
            g for s in sx.descendants(cls, into_scopes=True)
            if s.type == "expression_statement" and s.id != stmt.id and _steps(s) == _steps(stmt)
            and (g := _guard(s)) is not None and g[0] == attr and g[1] != now
        ]  # fmt: skip
        param = _init_param(cls, attr)
        if len(others) != 1 or param is None or param[1] != now:
            continue
        want = others[0][1]
        for cfile in ctx.source.files:
            for call in sx.calls_in(ctx.source.unit(cfile).tree.root_node, into_scopes=True):
                fn = sx.call_function(call)
                if fn is None or sx.text(fn).rsplit(".", 1)[-1] != sx.text(name):
                    continue
                if param[0] in sx.call_args(call)[1]:
                    continue
                yield Candidate(
                    f"`{sx.flat(call)[:60]}` built with {param[0]}={want!r} ({at(cfile, call)}): it stepped the scheduler by its default, {now!r}",
                    (ctx.source.set_kwarg(cfile, call, param[0], repr(want), anchor=True),),
                )


def _steps(stmt: Node) -> str | None:
    """The receiver of the `.step()` the statement makes (`self.scheduler`)."""
    call = next((c for c in sx.calls_in(stmt) if sx.method_name(c) == "step"), None)
    recv = sx.receiver(call) if call is not None else None
    return sx.text(recv) if recv is not None else None


def _guard(stmt: Node) -> tuple[str, str] | None:
    """("interval", "step") for a statement inside `if self.interval == "step":`."""
    branch = next((a for a in sx.ancestors(stmt) if a.type == "if_statement"), None)
    cond = branch.child_by_field_name("condition") if branch is not None else None
    if cond is None or cond.type != "comparison_operator" or "==" not in sx.text(cond):
        return None
    left, right = cond.named_children[0], cond.named_children[-1]
    if left.type != "attribute" or right.type != "string" or not sx.text(left).startswith("self."):
        return None
    return sx.text(left).removeprefix("self."), sx.text(right).strip("\"'")


def _init_param(cls: Node, attr: str) -> tuple[str, str] | None:
    """(the `__init__` parameter stored as `self.<attr>`, its default string)."""
    for fn in sx.descendants(cls, into_scopes=True):
        name = fn.child_by_field_name("name") if fn.type == "function_definition" else None
        if name is None or sx.text(name) != "__init__":
            continue
        params = fn.child_by_field_name("parameters")
        defaults = {
            sx.text(p.child_by_field_name("name")): sx.text(p.child_by_field_name("value")).strip("\"'")
            for p in (params.named_children if params is not None else [])
            if p.type == "default_parameter" and p.child_by_field_name("name") and p.child_by_field_name("value")
        }  # fmt: skip
        for node in sx.descendants(fn):
            if node.type == "assignment" and sx.text(node.child_by_field_name("left") or node) == f"self.{attr}":  # fmt: skip
                value = node.child_by_field_name("right")
                if value is not None and sx.text(value) in defaults:
                    return sx.text(value), defaults[sx.text(value)]
    return None
