"""Stage 8 operators: optimization choices, seeded only where stages 1-7 stay clean
(learning rate, initialization, dead units, capacity)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.evals.seeding import sites
from torch_investigate.evals.seeding.operators.base import Mutation, operator, site
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import last, torch_layer

ADAPTIVE_HIGH_LR, SGD_HIGH_LR, LOW_LR = "1.0", "10.0", "1e-6"
CONSTANT_INIT = "0.05"
DEAD_BIAS = "-10.0"
ACTIVATIONS = frozenset({"ReLU", "Tanh", "GELU", "Sigmoid", "LeakyReLU", "ELU", "SiLU", "Softplus"})
ACTIVATION_FUNCTIONS = frozenset({"relu", "tanh", "gelu", "sigmoid", "leaky_relu", "elu", "silu"})
WEIGHTED = ("Linear", "Conv1d", "Conv2d", "Conv3d")


def _lr_mutations(src: Source, high: bool) -> Iterator[Mutation]:
    for file, node in sites.optimizer_calls(src):
        name = last(sx.dotted(sx.call_function(node)) or "")
        value = (SGD_HIGH_LR if name == "SGD" else ADAPTIVE_HIGH_LR) if high else LOW_LR
        lr = sx.argument(node, 1, "lr")
        edit = (
            src.replace(file, lr, value)
            if lr is not None
            else src.set_kwarg(file, node, "lr", value)
        )
        line = sx.line(node)
        yield Mutation(
            f"lr_{value}",
            site(file, line),
            f"learning rate {sx.flat(lr) if lr is not None else 'default'} -> {value} "
            f"in the optimizer at {file}:{line}",
            (edit, src.mark(file, node)),
        )


@operator("lr_too_high", f"lr={ADAPTIVE_HIGH_LR} (Adam family) or {SGD_HIGH_LR} (SGD)")
def lr_too_high(src: Source) -> Iterator[Mutation]:
    yield from _lr_mutations(src, high=True)


@operator("lr_too_low", f"lr={LOW_LR} in the optimizer")
def lr_too_low(src: Source) -> Iterator[Mutation]:
    yield from _lr_mutations(src, high=False)


def _after_construction(src: Source, model: sites.TrainedModel) -> tuple[str, Node, str] | None:
    """Where init code for the model goes: the end of its class's __init__ (`self`), or
    right after the statement that builds it (`model`)."""
    if model.cls is not None:
        found = sites.method(src, model.cls, "__init__")
        stmts = sites.body_statements(found[1]) if found else []
        return (model.cls.file, stmts[-1], "self") if stmts else None
    if model.binding is None:
        return None
    stmt = src.statement_on(model.binding.file, model.binding.line)
    return (model.binding.file, stmt, model.expr) if stmt is not None else None


@operator(
    "bad_initialization",
    f"every parameter initialized to the constant {CONSTANT_INIT} (units stay identical)",
)
def bad_initialization(src: Source) -> Iterator[Mutation]:
    for model in sites.trained_models(src):
        place = _after_construction(src, model)
        if place is None or model.ctor_name == "Linear":
            continue  # one unit has no symmetry to break
        file, stmt, owner = place
        nn, imports = src.torch_expr(file, "torch.nn")
        code = f"for p in {owner}.parameters():\n    {nn}.init.constant_(p, {CONSTANT_INIT})"
        yield Mutation(
            "constant",
            site(file, sx.line(stmt)),
            f"added a constant {CONSTANT_INIT} init of every parameter after "
            f"{file}:{sx.line(stmt)}",
            (*imports, src.insert_after(file, stmt, code, anchor=True)),
        )


@operator(
    "dead_activations",
    f"the first hidden layer's bias initialized to {DEAD_BIAS}: its ReLUs never fire, "
    "tanh/sigmoid saturate",
)
def dead_activations(src: Source) -> Iterator[Mutation]:
    for model in sites.trained_models(src):
        place = _after_construction(src, model)
        first = _first_weighted(src, model)
        if place is None or first is None:
            continue
        file, stmt, _ = place
        nn, imports = src.torch_expr(file, "torch.nn")
        code = f"{nn}.init.constant_({first}.bias, {DEAD_BIAS})"
        yield Mutation(
            "negative_bias",
            site(file, sx.line(stmt)),
            f"added `{code}` after {file}:{sx.line(stmt)}",
            (*imports, src.insert_after(file, stmt, code, anchor=True)),
        )


def _first_weighted(src: Source, model: sites.TrainedModel) -> str | None:
    """`self.fc1`, `self.net[0]`, `model[0]`: the first Linear/Conv layer, if it is one."""
    if model.cls is not None:
        for a, node in sites.parameterized_attributes(src, model.cls):
            layer = torch_layer(a.resolved)
            if layer in WEIGHTED:
                return a.target
            if layer in ("Sequential", "ModuleList"):
                args = sx.call_args(node)[0]
                inner = args[0] if args else None
                if inner is not None and inner.type == "generator_expression":
                    inner = inner.named_children[0] if inner.named_children else None
                if inner is not None and inner.type == "call":
                    name = last(sx.dotted(sx.call_function(inner)) or "")
                    return f"{a.target}[0]" if name in WEIGHTED else None
            return None
        return None
    if model.ctor_name == "Sequential" and model.ctor is not None:
        layers = sx.call_args(model.ctor)[0]
        if layers and layers[0].type == "call":
            if last(sx.dotted(sx.call_function(layers[0])) or "") in WEIGHTED:
                return f"{model.expr}[0]"
    return None


@operator(
    "insufficient_capacity",
    "every hidden activation replaced by the identity: the model becomes linear",
)
def insufficient_capacity(src: Source) -> Iterator[Mutation]:
    edits = []
    first_site = None
    for call, node in src.calls():
        layer = torch_layer(call.resolved)
        in_model = sites.in_module_method(src, call.file, call.line) or _in_trained_sequential(
            src, node
        )
        if not in_model:
            continue
        if layer in ACTIVATIONS:
            nn = call.callee.rsplit(".", 1)[0] if "." in call.callee else None
            edits.append((call.file, node, f"{nn}.Identity()" if nn else "Identity()"))
        elif layer is None and last(call.resolved) in ACTIVATION_FUNCTIONS:
            arg = sx.call_args(node)[0]
            if call.resolved.startswith("torch.") and len(arg) == 1 and not sx.call_args(node)[1]:
                edits.append((call.file, node, sx.text(arg[0])))
        else:
            continue
        first_site = first_site or (call.file, call.line)
    if not edits or first_site is None:
        return
    # nested activations (relu(tanh(x))) would overlap: keep the outermost
    kept = [
        e
        for e in edits
        if not any(o is not e and o[0] == e[0] and sx.contains(o[1], e[1]) for o in edits)
    ]
    yield Mutation(
        "identity_activations",
        site(*first_site),
        "activations -> identity at " + ", ".join(f"{f}:{sx.line(n)}" for f, n, _ in kept),
        tuple(src.replace(f, n, t, anchor=i == 0) for i, (f, n, t) in enumerate(kept)),
    )


def _in_trained_sequential(src: Source, node: Node) -> bool:
    for model in sites.trained_models(src):
        if model.ctor_name == "Sequential" and model.ctor is not None:
            if sx.contains(model.ctor, node):
                return True
    return False
