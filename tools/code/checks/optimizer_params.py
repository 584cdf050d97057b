"""An optimizer that does not own the parameters being trained: built before a layer
is replaced, given a subset (a submodule or parameter groups that miss one), or given
a `parameters()` generator another consumer already exhausted.

Parts left out on purpose (frozen with requires_grad=False, excluded by a filter) and
optimizers rebuilt after the replacement do not fire.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import (
    CheckContext,
    Spot,
    check,
    finding,
    observe,
    spot,
)
from torch_investigate.tools.code.checks.exhausted_params import _exhausted_generators
from torch_investigate.tools.code.flow import EvalContext, Obj, Value
from torch_investigate.tools.code.models import forward_reads, parameterized_submodules
from torch_investigate.tools.code.names import (
    CONTAINER_LAYERS,
    PARAMETERIZED_LAYERS,
    torch_layer,
)
from torch_investigate.tools.code.params import (
    ModuleRef,
    OptimizerSite,
    covers,
    freezes,
    normalized_text,
    optimizers,
)
from torch_investigate.tools.records import Finding

NAME = "optimizer_missing_params"
# Builtins that run through an iterable (a generator passed to them is used up).


@check(NAME, "optimizer_missing_params", "tiny_grad_clip")
def optimizer_missing_params(ctx: CheckContext) -> Iterator[Finding]:
    """Optimizer built before a layer swap, given a subset, or an exhausted generator."""
    yield from _replaced_after(ctx)
    yield from _subset(ctx)
    yield from _exhausted_generators(ctx)


# ---- a layer replaced after the optimizer was built ----------------------------------------


def _is_module_ctor(ctx: CheckContext, value: Value) -> bool:
    node = value.node
    if node.type != "call":
        return False
    fn = sx.call_function(node)
    if fn is None or sx.method_name(node) in (
        "to",
        "cuda",
        "cpu",
        "train",
        "eval",
        "float",
        "double",
        "half",
    ):
        return False
    resolved = value.frame.unit.resolve_callee(fn)[1]
    if torch_layer(resolved) is not None:
        return True
    return any(
        o.kind == "class" and o.symbol is not None and o.symbol.is_nn_module
        for o in ctx.flow.objects(Value(fn, value.frame), budget=40)
    )


def _replaced_after(ctx: CheckContext) -> Iterator[Finding]:
    a = ctx.analysis
    opts = optimizers(a)
    for opt in opts:
        frame = opt.ctor.frame
        scope = frame.scope or frame.unit.tree.root_node
        roots = {normalized_text(s.module.value.node): s for s in opt.sources if not s.filtered}
        if not roots:
            continue
        statement = sx.statement_of(opt.ctor.node)
        for node in sx.descendants(scope):
            if node.start_byte <= statement.end_byte:
                continue
            hit = _replacement(ctx, node, frame, roots)
            if hit is None:
                hit = _replacement_in_helper(ctx, node, frame, roots)
            if hit is None:
                continue
            target_text, where, source = hit
            if _rebuilt_later(opts, opt, scope, where):
                continue
            yield _replaced_finding(ctx, opt, where, target_text, source.module)
            break


def _replacement(
    ctx: CheckContext, node: Node, frame: EvalContext, roots: dict
) -> tuple[str, Value, object] | None:
    if node.type != "assignment":
        return None
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or right is None or left.type not in ("attribute", "identifier", "subscript"):
        return None
    target = normalized_text(left)
    for root, source in roots.items():
        part_of_root = target == root or target.startswith((root + ".", root + "["))
        if part_of_root and _is_module_ctor(ctx, Value(right, frame)):
            return target, Value(node, frame), source
    return None


def _replacement_in_helper(
    ctx: CheckContext, node: Node, frame: EvalContext, roots: dict
) -> tuple[str, Value, object] | None:
    """`replace_head(model)` after the optimizer, where the helper does `model.fc = ...`."""
    if node.type != "call":
        return None
    fn = sx.call_function(node)
    if fn is None:
        return None
    call = Value(node, frame)
    for callee in ctx.flow.objects(Value(fn, frame), budget=40):
        if callee.kind != "function" or callee.node is None or callee.unit is None:
            continue
        inner = ctx.flow.bind_call(callee.unit, callee.node, call, callee.self_obj)
        body = sx.function_body(callee.node)
        if body is None:
            continue
        mapping = {name: normalized_text(v.node) for name, v in inner.bound.items()}
        for stmt in sx.descendants(body):
            if stmt.type != "assignment":
                continue
            left = stmt.child_by_field_name("left")
            right = stmt.child_by_field_name("right")
            if left is None or right is None or left.type != "attribute":
                continue
            head, _, rest = normalized_text(left).partition(".")
            outer = mapping.get(head)
            if outer is None or not rest:
                continue
            target = f"{outer}.{rest}"
            for root, source in roots.items():
                if target.startswith(root + ".") and _is_module_ctor(ctx, Value(right, inner)):
                    return target, Value(stmt, inner), source
    return None


def _rebuilt_later(
    opts: list[OptimizerSite], opt: OptimizerSite, scope: Node, where: Value
) -> bool:
    """Another optimizer is built after the replacement, in the original optimizer's
    scope or in the function that replaces the layer."""
    replaced_at = sx.statement_of(where.node).start_byte
    replacing_fn = sx.enclosing_function(where.node) or where.frame.unit.tree.root_node
    for other in opts:
        if other is opt or other.ctor.node.start_byte <= replaced_at:
            continue
        same_file = other.ctor.frame.unit is where.frame.unit
        if same_file and (
            sx.contains(scope, other.ctor.node) or sx.contains(replacing_fn, other.ctor.node)
        ):
            return True
    return False


def _replaced_finding(
    ctx: CheckContext, opt: OptimizerSite, where: Value, target: str, source: ModuleRef
) -> Finding:
    at = spot(ctx, where)
    ctor = spot(ctx, opt.ctor)
    return finding(
        "optimizer_missing_params",
        at,
        confidence="high",
        evidence=[
            observe(ctor, f"{opt.name} takes the parameters of `{source.text}` here"),
            observe(at, f"then `{target}` is replaced by a new module"),
        ],
        why=(
            "The optimizer keeps references to the old parameters: the new layer's weights "
            "are not in optimizer.param_groups, get gradients that nobody applies, and stay "
            "at their random initialization."
        ),
        confirm=(
            "Check that every parameter of the model is in optimizer.param_groups (the new "
            f"layer's are not); then build the optimizer after {at.file}:{at.line} and compare."
        ),
    )


# ---- the optimizer gets only part of the trained model ----------------------------------------


def _subset(ctx: CheckContext) -> Iterator[Finding]:
    a = ctx.analysis
    opts = optimizers(a)
    sources = [s for o in opts for s in o.sources]
    frozen_refs = [f.ref for f in freezes(a) if f.kind == "requires_grad"]
    for model in _trained_models(ctx):
        parts, used = _parts_of(ctx, model)
        if not parts or not sources:
            continue
        whole = ModuleRef(_model_value(model), [model])
        if any(covers(a, s.module, whole) for s in sources):
            continue
        covered = {n for n, ref in parts.items() if any(covers(a, s.module, ref) for s in sources)}
        if not covered:
            continue  # another model's optimizer, or none of ours: not a subset question
        frozen = {n for n, ref in parts.items() if any(covers(a, f, ref) for f in frozen_refs)}
        missing = sorted(n for n in parts if n in used and n not in covered and n not in frozen)
        if missing:
            yield _subset_finding(ctx, opts, model, missing, sorted(covered))
    yield from _explicit_subset(ctx, opts)


def _model_value(model: Obj) -> Value:
    if model.ctor is not None:
        return model.ctor
    assert model.node is not None and model.unit is not None
    return Value(model.node, EvalContext(model.unit, None))


def _trained_models(ctx: CheckContext) -> list[Obj]:
    """Repo module instances and torch containers called in training loops."""
    seen: dict[int, Obj] = {}
    for loop in ctx.analysis.training_loops:
        for o in loop.occurrences:
            if o.kind != "forward":
                continue
            for obj in o.event.objects:
                if obj.kind == "instance" and obj.symbol is not None and obj.node is not None:
                    seen.setdefault(obj.node.id, obj)
                elif (
                    obj.kind == "external"
                    and obj.ctor is not None
                    and torch_layer(obj.resolved) == "Sequential"
                ):
                    seen.setdefault(obj.ctor.node.id, obj)
    return list(seen.values())


def _parts_of(ctx: CheckContext, model: Obj) -> tuple[dict[str, ModuleRef], set[str]]:
    """(name -> submodule that owns parameters, names the forward uses)."""
    if model.kind == "instance" and model.symbol is not None:
        return _parts(ctx, model), forward_reads(ctx.analysis, model.symbol)
    assert model.ctor is not None
    parts: dict[str, ModuleRef] = {}
    args, _ = sx.call_args(model.ctor.node)
    for i, arg in enumerate(args):
        v = Value(arg, model.ctor.frame)
        objs = [o for o in ctx.flow.objects(v, budget=60) if o.kind != "unknown"]
        if any(_owns_parameters(o) for o in objs):
            parts[f"[{i}]"] = ModuleRef(v, objs)
    return parts, set(parts)


def _parts(ctx: CheckContext, model: Obj) -> dict[str, ModuleRef]:
    """The model's submodules that own parameters, as module references."""
    assert model.symbol is not None
    out: dict[str, ModuleRef] = {}
    for name in parameterized_submodules(ctx.analysis, model.symbol):
        for unit, b in ctx.flow.attribute_bindings(model.symbol, name):
            if b.value is None:
                continue
            frame = EvalContext(unit, b.scope, {}, model)
            objs = [
                o for o in ctx.flow.objects(Value(b.value, frame), budget=60) if o.kind != "unknown"
            ]
            if objs:
                out[name] = ModuleRef(Value(b.target, frame), objs)
                break
    return out


def _owns_parameters(obj: Obj) -> bool:
    if obj.kind == "instance":
        return obj.symbol is not None and obj.symbol.is_nn_module
    layer = torch_layer(obj.resolved) if obj.kind == "external" else None
    return layer in PARAMETERIZED_LAYERS or layer in CONTAINER_LAYERS


def _explicit_subset(ctx: CheckContext, opts: list[OptimizerSite]) -> Iterator[Finding]:
    """`SGD([model.weight])` for a layer whose bias trains too."""
    for opt in opts:
        if opt.params_arg is None or opt.params_arg.node.type not in ("list", "tuple"):
            continue
        given: dict[str, set[str]] = {}
        for item in opt.params_arg.node.named_children:
            if item.type != "attribute":
                continue
            owner = item.child_by_field_name("object")
            attr = item.child_by_field_name("attribute")
            if owner is not None and attr is not None and sx.text(attr) in ("weight", "bias"):
                given.setdefault(sx.flat(owner), set()).add(sx.text(attr))
        for owner_text, attrs in given.items():
            missing = {"weight", "bias"} - attrs
            if not missing or not _layer_with_bias(ctx, opt, owner_text):
                continue
            at = spot(ctx, opt.ctor)
            names = ", ".join(f"`{owner_text}.{m}`" for m in sorted(missing))
            yield finding(
                "optimizer_missing_params",
                at,
                confidence="medium",
                evidence=[
                    observe(
                        at,
                        f"{opt.name} is given only `{owner_text}.{', '.join(sorted(attrs))}`; {names} is left out",
                    )
                ],
                why=(
                    f"{names} gets gradients but no optimizer applies them: it stays at its "
                    "initial value and the layer can only fit through the other tensor."
                ),
                confirm=(
                    "Compare the layer's parameters with optimizer.param_groups; then pass "
                    f"`{owner_text}.parameters()` at {at.file}:{at.line} and compare."
                ),
            )


def _layer_with_bias(ctx: CheckContext, opt: OptimizerSite, owner_text: str) -> bool:
    """The expression denotes a torch layer built with a bias (the default)."""
    assert opt.params_arg is not None
    node = next(
        (
            n
            for n in sx.descendants(opt.params_arg.node)
            if n.type in ("identifier", "attribute") and sx.flat(n) == owner_text
        ),
        None,
    )
    if node is None:
        return False
    for obj in ctx.flow.objects(Value(node, opt.params_arg.frame), budget=60):
        if (
            obj.kind == "external"
            and obj.ctor is not None
            and torch_layer(obj.resolved) in PARAMETERIZED_LAYERS
        ):
            bias = sx.argument(obj.ctor.node, None, "bias")
            return bias is None or sx.flat(bias) != "False"
    return False


def _forward_spot(ctx: CheckContext, model: Obj) -> Spot:
    """Where the model's parts are used: its forward, or the container's construction."""
    if model.symbol is None:
        return spot(ctx, _model_value(model))
    located = ctx.flow.method(model.symbol, "forward") or ctx.flow.class_node(model.symbol)
    assert located is not None
    return spot(ctx, (located[0].file, located[1]))


def _subset_finding(
    ctx: CheckContext, opts: list[OptimizerSite], model: Obj, missing: list[str], covered: list[str]
) -> Finding:
    opt = next(o for o in opts if o.sources)
    at = spot(ctx, opt.ctor)
    names = ", ".join(f"`{m}`" for m in missing)
    label = model.symbol.name if model.symbol is not None else "the nn.Sequential"
    used = f"{label}.forward" if model.symbol is not None else label
    return finding(
        "optimizer_missing_params",
        at,
        confidence="medium",
        evidence=[
            observe(at, f"{opt.name} receives only {', '.join(covered)} of {label}"),
            observe(
                _forward_spot(ctx, model),
                f"{used} also uses {names}, which no optimizer receives and nothing freezes",
            ),
        ],
        why=(
            f"These parts ({names}) are used in the forward pass and receive gradients, but "
            "no optimizer updates them: they stay at their initialization and cap what the "
            "model can learn."
        ),
        confirm=(
            "Compare {id(p) for p in model.parameters()} with the parameters in "
            f"optimizer.param_groups ({names} missing); then add them at {at.file}:{at.line} "
            "and compare the loss curves."
        ),
    )


# ---- one parameters() generator consumed twice ------------------------------------------------
