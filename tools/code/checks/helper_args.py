"""A repo helper that computes the loss, called with the model's output in the place its
own parameters name the target and the batch's target in the place they name the
prediction (`gamma_deviance(y_true, y_pred)` called as `gamma_deviance(out, y)`: the
Keras order met a PyTorch caller). Torch's own losses are loss_args.py's; here the names
only point at the call, and the run decides (agent/checks/helper_swap.py): the call is
replayed with the two arguments exchanged and kept only if the model's output then comes
closer to its target than chance moves it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.checks.model_values import model_origins
from torch_investigate.tools.code.names import last
from torch_investigate.tools.records import Finding

TARGET_PARAM = re.compile(
    r"(^|_)(true|target|targets|label|labels|truth|gt|actual|observed)($|_)|^y$"
)
PREDICTION_PARAM = re.compile(r"pred|hat|logit|output|estimate|forecast|^input$|^out$|^mu$")


@dataclass(frozen=True)
class HelperCall:
    file: str
    line: int
    model_at: int  # the argument position holding the model's output
    target_at: int  # the one holding the batch's target
    helper: str
    params: tuple[str, str]  # the helper's names for those two positions


def _repo_function_calls(ctx: CheckContext, *, modules: bool = False):
    """(unit, call, the called repo function's symbol, positional arguments) for calls by
    plain name of a function the repo defines once at module level, or with `modules` of
    an instance of a repo nn.Module (its forward: `criterion(model(x), y)` into a loss
    class), with two or more positional arguments."""
    for unit in ctx.index.units.values():
        for call in unit.call_nodes:
            fn = sx.call_function(call)
            positional, _ = sx.call_args(call)
            if fn is None or len(positional) < 2:
                continue
            forward = _module_forward(ctx, unit, fn) if modules else None
            if forward is not None:
                yield unit, call, forward, positional
                continue
            if fn.type != "identifier":
                continue
            name = last(unit.resolve_callee(fn)[1]) or sx.text(fn)
            defs = [
                s
                for s in ctx.index.find_symbols(name)
                if s.kind == "function" and s.qualname == name
            ]
            if len(defs) == 1:
                yield unit, call, defs[0], positional


def _module_forward(ctx: CheckContext, unit, fn):
    """The forward symbol of the repo nn.Module class whose one instance `fn` denotes."""
    if fn.type not in ("identifier", "attribute"):
        return None
    objs = ctx.flow.objects(ctx.flow.value(unit, fn), budget=60)
    classes = {o.symbol.qualname: o.symbol for o in objs if o.kind == "instance" and o.symbol}
    if len(classes) != 1:
        return None
    cls = next(iter(classes.values()))
    if not cls.is_nn_module:
        return None
    return next(
        (s for s in ctx.index.find_symbols("forward") if s.qualname == f"{cls.qualname}.forward"),
        None,
    )


def _parameters(ctx: CheckContext, sym) -> list[str]:
    """The positional parameters a caller fills (a method's `self` left out)."""
    node = ctx.index.definition(sym)
    params = sx.parameter_names(node) if node is not None else []
    return params[1:] if "." in sym.qualname and params[:1] == ["self"] else params


def _model_roles(ctx: CheckContext, unit, positional) -> Iterator[tuple[int, int]]:
    """(i, j) for the first two arguments: i comes from the model's output, j does not."""
    for i, j in ((0, 1), (1, 0)):
        vi, vj = ctx.flow.value(unit, positional[i]), ctx.flow.value(unit, positional[j])
        if model_origins(ctx.flow, vi) and not model_origins(ctx.flow, vj):
            yield i, j


def _named_reversed(params: list[str], i: int, j: int) -> bool:
    """The helper names a target where the model's output goes, a prediction where the
    target goes."""
    if not (TARGET_PARAM.search(params[i]) and PREDICTION_PARAM.search(params[j])):
        return False
    return not (TARGET_PARAM.search(params[j]) and not PREDICTION_PARAM.search(params[i]))


def _spelled_reversed(positional, params: list[str], i: int, j: int) -> bool:
    """The caller's argument at one of the two positions is spelled as the helper's
    parameter at the other (`nll(log_rate, y)` into `def nll(counts, log_rate)`): the
    caller's order is not the helper's, whatever the names mean."""
    return sx.text(positional[i]) == params[j] or sx.text(positional[j]) == params[i]


def helper_calls(ctx: CheckContext) -> Iterator[tuple[HelperCall, object]]:
    """Calls of a repo function whose result reaches a backward, with the model's output
    where the function's parameter names a target and the batch's target where it names a
    prediction."""
    for unit, call, sym, positional in _repo_function_calls(ctx, modules=True):
        params = _parameters(ctx, sym)
        if len(params) < 2 or not _reaches_backward(call):
            continue
        for i, j in _model_roles(ctx, unit, positional):
            if not (_named_reversed(params, i, j) or _spelled_reversed(positional, params, i, j)):
                continue
            yield (
                HelperCall(unit.file, sx.line(call), i, j, sym.qualname, (params[i], params[j])),
                ctx.flow.value(unit, call),
            )


def metric_calls(ctx: CheckContext, limit: int = 3) -> list[tuple[str, str]]:
    """Calls of a repo function with the model's output and a value that is not, whose
    result no backward reads (an evaluation metric, `dice(logits, mask)`): `file:line:i:j`
    (i the output's position, j the other's) and the function's `file:line:name`. The
    outermost first: a call inside a helper that is itself called so (the counts an F1
    helper takes of its predictions) is a part of the metric the program reports, probed
    only when the limit leaves room."""
    found: list[tuple[str, str, str | None]] = []  # spec, helper, the function it is in
    for spec, helper, file, call in _output_calls(ctx, trains=False):
        fn = sx.enclosing_function(call)
        inside = f"{file}:{sx.line(fn)}" if fn is not None else None
        found.append((spec, helper, inside))
    depth = _nesting(found)
    ranked = sorted(range(len(found)), key=lambda k: (depth[k], k))
    return [found[k][:2] for k in ranked[:limit]]


def loss_helper_calls(ctx: CheckContext, limit: int = 2) -> list[tuple[str, str]]:
    """Calls of a repo function (or a repo loss module) with the model's output and a
    value that is not, whose result a backward reads (`angular_loss(model(x), theta)`):
    `file:line:i:j` and the function's `file:line:name`, as metric_calls gives them."""
    return [(spec, helper) for spec, helper, *_ in _output_calls(ctx, trains=True)][:limit]


def _output_calls(ctx: CheckContext, *, trains: bool) -> Iterator[tuple[str, str, str, object]]:
    """(`file:line:i:j`, the helper's `file:line:name`, the call's file, the call) for each call of a repo
    function with the model's output at i and a value that is not at j, once per line and
    roles (a call nested in another on its line): those whose result a backward reads with
    `trains` (a repo loss module's forward too), the others without."""
    seen: set[str] = set()
    for unit, call, sym, positional in _repo_function_calls(ctx, modules=trains):
        if _reaches_backward(call) != trains or _compiled(call):
            continue
        for i, j in _model_roles(ctx, unit, positional):
            spec = f"{unit.file}:{sx.line(call)}:{i}:{j}"
            if spec not in seen:
                seen.add(spec)
                yield spec, f"{sym.file}:{sym.def_line}:{sym.qualname}", unit.file, call
            break


def _nesting(found: list[tuple[str, str, str | None]]) -> list[int]:
    """How many metric helper calls each call lies inside: 0 when the function it is in is
    no helper called with the model's output, else one more than the calls of that helper."""
    callers: dict[str, list[int]] = {}
    for k, (_, helper, _) in enumerate(found):
        callers.setdefault(helper.rsplit(":", 1)[0], []).append(k)
    depth = [0] * len(found)
    for _ in range(len(found)):  # settles within as many rounds as there are calls
        depth = [
            1 + min((depth[c] for c in callers[inside] if c != k), default=-1)
            if inside in callers
            else 0
            for k, (_, _, inside) in enumerate(found)
        ]
    return depth


def _compiled(call) -> bool:
    """Inside a function TorchScript or a compiler reads as source (its call must stay as
    written)."""
    fn = sx.enclosing_function(call)
    while fn is not None:
        definition = (
            fn.parent if fn.parent is not None and fn.parent.type == "decorated_definition" else fn
        )
        if any(
            w in sx.text(d)
            for d in sx.decorators_of(definition)
            for w in ("jit", "script", "compile")
        ):
            return True
        fn = sx.enclosing_function(fn)
    return False


def _reaches_backward(call) -> bool:
    """The call's value is assigned to a name that a `.backward()` in the same function
    reads, directly or through one more assignment (`loss = a + lam * b`)."""
    stmt = sx.statement_of(call)
    target = stmt.child_by_field_name("left") if stmt.type == "assignment" else None
    if target is None and stmt.type == "expression_statement" and stmt.named_children:
        inner = stmt.named_children[0]
        target = inner.child_by_field_name("left") if inner.type == "assignment" else None
    if target is None or target.type != "identifier":
        return False
    names = {sx.text(target)}
    scope = sx.enclosing_function(call) or _root(call)
    for node in sx.descendants(scope):
        if node.type == "assignment":
            right = node.child_by_field_name("right")
            left = node.child_by_field_name("left")
            if right is not None and left is not None and sx.identifiers_in(right) & names:
                names |= sx.identifiers_in(left)
    for c in sx.calls_in(scope):
        if sx.method_name(c) == "backward":
            rec = sx.receiver(c)
            if rec is not None and (sx.identifiers_in(rec) & names):
                return True
    return False


def _root(node):
    while node.parent is not None:
        node = node.parent
    return node


@check("loss_args_swapped", "loss_args_swapped")
def helper_arguments(ctx: CheckContext) -> Iterator[Finding]:
    """A loss helper given the model's output where its parameters name the target."""
    for hc, value in helper_calls(ctx):
        at = spot(ctx, value)
        yield finding(
            "loss_args_swapped",
            at,
            confidence="low",
            evidence=[
                observe(
                    at,
                    f"{hc.helper}() takes `{hc.params[0]}` at position {hc.model_at + 1} and "
                    f"`{hc.params[1]}` at position {hc.target_at + 1}; this call passes the "
                    "model's output to the first and the batch's target to the second",
                    model_at=hc.model_at,
                    target_at=hc.target_at,
                )
            ],
            why=(
                f"if {hc.helper} is not symmetric in its two arguments, the model is trained "
                "toward another objective than the one the helper defines"
            ),
            confirm=(
                f"exchange the two arguments at {at.file}:{at.line} and compare how close the "
                "model's output gets to its target"
            ),
        )
