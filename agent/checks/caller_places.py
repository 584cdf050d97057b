"""Placing a finding at the caller: what a generic helper computes wrong was often passed
in by its call inside a training loop (operands a squared error only combines, a mask a
loss helper only applies, arguments in the order the helper's names reverse, a returned
loss the caller throws away). The run decides the finding; these only place it, from the
code index, and return None when the code does not say."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.places import _function_at, _location
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.loops import find_training_loops
from torch_investigate.tools.records import Location
from torch_investigate.tools.tracefile.trace import Frame

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


_COMBINE = ("binary_operator", "call")


def caller_passing(session: Session, frame: Frame | None) -> Location | None:
    """When the expression at `frame` only combines the enclosing function's own
    parameters (`(pred - target) ** 2` in a generic `squared_error(pred, target)`), what
    went wrong was passed in: the call site inside a training loop."""
    if frame is None:
        return None
    unit = session.index.unit(frame.file)
    if unit is None:
        return None
    combines = [
        n
        for n in sx.descendants(unit.tree.root_node, into_scopes=True)
        if n.type in _COMBINE and sx.line(n) == frame.line
    ]
    for node in combines:
        fn = sx.enclosing_function(node)
        if fn is None or not _only_parameters(node, set(sx.parameter_names(fn))):
            continue
        found = _loop_caller(session, fn)
        if found is not None:
            return found
    return None


def _loop_caller(session: Session, fn) -> Location | None:
    """The call of the function `fn` inside a training loop."""
    a = analysis(session.index)
    loops = find_training_loops(session.index)
    for caller in a.flow.callers(fn):
        if any(
            lp.file == caller.file and lp.line_start <= caller.line <= lp.line_end for lp in loops
        ):
            return _location(session, caller.file, caller.line)
    return None


# what a mask may go through in the helper and still be the mask it was given
_MASK_CASTS = frozenset(
    {"float", "bool", "to", "type_as", "double", "half", "unsqueeze", "view_as"}
)


def mask_passed_in(session: Session, frame: Frame | None) -> Location | None:
    """A loss helper that multiplies its element-wise loss by a mask it was handed as a
    parameter (`(per_px * mask).sum() / mask.sum()`) applies what the caller chose: a
    mask of the wrong convention is written where it is passed, the helper's call in a
    training loop. None when the helper builds the mask itself."""
    fn = _function_at(session, frame)
    if fn is None or frame is None:
        return None
    # the loss's own operands are not a mask the caller chose (`err * target`)
    unit = session.index.unit(frame.file)
    calls = [c for c in unit.call_nodes if sx.line(c) == frame.line] if unit is not None else []
    operands = {i for c in calls for i in sx.identifiers_in(c)}
    params = set(sx.parameter_names(fn)) - operands - _numbers_by_default(fn)
    for node in sx.descendants(fn):
        if node.type != "binary_operator" or sx.text(node.child_by_field_name("operator")) != "*":
            continue
        sides = (node.child_by_field_name("left"), node.child_by_field_name("right"))
        if any(n is not None and _given(fn, n, params) for n in sides):
            return _loop_caller(session, fn)
    return None


def _numbers_by_default(fn) -> set[str]:
    """Parameters whose default is a number (`alpha=0.75`): a coefficient, not a mask."""
    params = fn.child_by_field_name("parameters")
    out = set()
    for p in params.named_children if params is not None else ():
        value = p.child_by_field_name("value")
        if p.type in ("default_parameter", "typed_default_parameter") and value is not None:
            number = value.named_children[-1] if value.type == "unary_operator" else value
            if number is not None and number.type in ("integer", "float"):
                out.add(sx.text(p.child_by_field_name("name")))
    return out


def _given(fn, node, params: set[str]) -> bool:
    """`node` is one of the function's parameters, as given or only cast (`mask.float()`,
    or a name assigned only from such an expression)."""
    while (
        node.type == "call"
        and sx.method_name(node) in _MASK_CASTS
        and sx.receiver(node) is not None
    ):
        node = sx.receiver(node)
    if node.type != "identifier":
        return False
    name = sx.text(node)
    assigned = [
        a.child_by_field_name("right")
        for a in sx.descendants(fn)
        if a.type == "assignment" and sx.text(a.child_by_field_name("left")) == name
    ]
    if not assigned:
        return name in params
    return name in params and all(
        r is not None and r.type == "call" and _given_cast(r, name) for r in assigned
    )


def _given_cast(node, name: str) -> bool:
    """`name.float()`, `name.to(x)`, ...: the name itself, only cast."""
    while (
        node.type == "call"
        and sx.method_name(node) in _MASK_CASTS
        and sx.receiver(node) is not None
    ):
        node = sx.receiver(node)
    return node.type == "identifier" and sx.text(node) == name


def swapped_by_caller(session: Session, frame: Frame | None) -> Location | None:
    """A loss called inside a helper on the helper's own parameters, swapped at run time:
    when a training-loop caller passes, at one parameter's position, an argument spelled
    as another of the helper's parameters (`helper(y, logits)` into `def helper(logits,
    labels)`), the swap was passed in and the call site is where it is. Only the spelling
    tells the caller's order from the helper's here: it breaks the tie."""
    if frame is None or (unit := session.index.unit(frame.file)) is None:
        return None
    calls = [
        n
        for n in sx.descendants(unit.tree.root_node, into_scopes=True)
        if n.type == "call" and sx.line(n) == frame.line
    ]
    loops = find_training_loops(session.index)
    for node in calls:
        fn = sx.enclosing_function(node)
        if fn is None:
            continue
        params = [p for p in sx.parameter_names(fn) if p not in ("self", "cls")]
        for caller in analysis(session.index).flow.callers(fn):
            if caller.node.type != "call" or not any(
                lp.file == caller.file and lp.line_start <= caller.line <= lp.line_end
                for lp in loops
            ):
                continue
            pos, kw = sx.call_args(caller.node)
            passed = {
                **dict(zip(params, pos, strict=False)),
                **{k: v for k, v in kw.items() if k in params},
            }
            if any(
                a.type == "identifier" and sx.text(a) in params and sx.text(a) != p
                for p, a in passed.items()
            ):
                return _location(session, caller.file, caller.line)
    return None


def discarding_caller(session: Session, frame: Frame | None) -> Location | None:
    """The call that throws away what the function at `frame` returns: a helper that
    computes and returns the loss, called by a framework's training step as a bare
    statement (`self._common_step(batch)` with no `return`), so the step hands nothing on."""
    fn = _function_at(session, frame)
    if fn is None or not any(
        n.type == "return_statement" and n.named_child_count
        for n in sx.descendants(fn)
        if sx.enclosing_function(n) == fn
    ):
        return None
    for caller in analysis(session.index).flow.callers(fn):
        parent = caller.node.parent
        if parent is not None and parent.type == "expression_statement":
            return _location(session, caller.file, caller.line)
    return None


def _only_parameters(node, params: set[str]) -> bool:
    """Two or more operands, each one of `params` (the callee of a call aside)."""
    if node.type == "binary_operator":
        operands = [node.child_by_field_name("left"), node.child_by_field_name("right")]
    else:
        operands = sx.call_args(node)[0][:2]
    return len(operands) == 2 and all(
        o is not None and o.type == "identifier" and sx.text(o) in params for o in operands
    )
