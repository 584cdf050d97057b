"""Stage 3 operators: the forward pass (shapes, dims, layouts, input use, output range)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.evals.seeding import sites
from torch_investigate.evals.seeding.operators.autograd import forward_assignments
from torch_investigate.evals.seeding.operators.base import Mutation, operator, site
from torch_investigate.evals.seeding.operators.loss import REGRESSION_LOSSES
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import Symbol
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import last

FLATTENING = frozenset({"squeeze", "flatten", "view", "reshape"})
NORMALIZERS = frozenset({"softmax", "log_softmax"})


def _flattening(node: Node | None) -> Node | None:
    """The receiver of `E.squeeze(...)`, `E.flatten()`, `E.view(-1)`, `E.reshape(-1)`."""
    if node is None or node.type != "call" or sx.method_name(node) not in FLATTENING:
        return None
    args = sx.call_args(node)[0]
    if sx.method_name(node) in ("view", "reshape") and [sx.text(a) for a in args] != ["-1"]:
        return None
    return sx.receiver(node)


def _forward(src: Source, cls: Symbol) -> tuple[Symbol, Node] | None:
    return sites.method(src, cls, "forward")


def _input_param(fn: Node) -> str | None:
    params = [p for p in sx.parameter_names(fn) if p != "self"]
    return params[0] if params else None


@operator(
    "broadcast_mismatch",
    "an elementwise regression loss sees [N] against [N, 1]: the prediction's squeeze "
    "removed, or the target made a column",
)
def broadcast_mismatch(src: Source) -> Iterator[Mutation]:
    for lc in sites.training_losses(src):
        if lc.kind not in REGRESSION_LOSSES:
            continue
        pred, target = lc.prediction, lc.target
        inner = _flattening(pred)
        if pred is not None and inner is not None:
            yield Mutation(
                "prediction_unflattened",
                site(lc.file, sx.line(lc.node)),
                f"`{sx.flat(pred)}` -> `{sx.flat(inner)}` at {lc.file}:{sx.line(lc.node)}",
                (src.replace(lc.file, pred, sx.text(inner), anchor=True),),
            )
        for cls in sites.trained_classes(src):
            found = _forward(src, cls)
            for ret in sites.returns(found[1]) if found else []:
                inner = _flattening(ret)
                if inner is not None:
                    yield Mutation(
                        "forward_unflattened",
                        site(cls.file, sx.line(ret)),
                        f"{cls.qualname}.forward returns `{sx.flat(inner)}` instead of "
                        f"`{sx.flat(ret)}` ({cls.file}:{sx.line(ret)})",
                        (src.replace(cls.file, ret, sx.text(inner), anchor=True),),
                    )
        if target is not None:
            text = f"{src.operand(target)}.unsqueeze(1)"
            yield Mutation(
                "target_column",
                site(lc.file, sx.line(lc.node)),
                f"loss target `{sx.flat(target)}` -> `{text}` at {lc.file}:{sx.line(lc.node)}",
                (src.replace(lc.file, target, text, anchor=True),),
            )


@operator(
    "wrong_dimension",
    "a softmax in forward normalizes over dim 0 (the batch), or a normalization over "
    "the batch is added after the first hidden layer",
)
def wrong_dimension(src: Source) -> Iterator[Mutation]:
    for call, node in src.calls():
        name = sx.method_name(node) or last(call.resolved)
        if name not in NORMALIZERS or not sites.in_module_method(src, call.file, call.line):
            continue
        method = sx.method_name(node) in NORMALIZERS
        dim = sx.argument(node, 0 if method else 1, "dim")
        if dim is None or sx.text(dim) == "0":
            continue
        yield Mutation(
            "softmax_dim0",
            site(call.file, call.line),
            f"{name} dim {sx.flat(dim)} -> 0 at {call.file}:{call.line}",
            (src.replace(call.file, dim, "0", anchor=True),),
        )
    for cls in sites.trained_classes(src):
        file, stmts = forward_assignments(src, cls)
        for stmt in stmts[:1]:
            left = stmt.named_children[0].child_by_field_name("left")
            if left is None or left.type != "identifier" or len(stmts) < 2:
                continue
            functional, imports = src.torch_expr(file, "torch.nn.functional")
            h = sx.text(left)
            code = f"{h} = {functional}.normalize({h}, dim=0)"
            yield Mutation(
                "normalize_dim0",
                site(file, sx.line(stmt)),
                f"added `{code}` after {file}:{sx.line(stmt)} in {cls.qualname}.forward",
                (*imports, src.insert_after(file, stmt, code, anchor=True)),
            )


@operator(
    "reshape_scramble",
    "the forward's input is re-laid out with reshape + transpose (mixing samples), or "
    "a [B, T, C] output is flattened time-major against batch-major targets",
)
def reshape_scramble(src: Source) -> Iterator[Mutation]:
    for cls in sites.trained_classes(src):
        found = _forward(src, cls)
        if found is None:
            continue
        _, fn = found
        x = _input_param(fn)
        body = sites.body_statements(fn)
        if x is None or not body:
            continue
        code = f"{x} = {x}.reshape({x}.shape[1], {x}.shape[0], *{x}.shape[2:]).transpose(0, 1)"
        yield Mutation(
            "input_relaid",
            site(cls.file, sx.line(body[0])),
            f"added `{code}` at the top of {cls.qualname}.forward ({cls.file}:{sx.line(body[0])})",
            (src.insert_before(cls.file, body[0], code, anchor=True),),
        )
    for lc in sites.training_losses(src):
        pred = lc.prediction
        if pred is None or pred.type != "call" or sx.method_name(pred) not in ("reshape", "view"):
            continue
        args = sx.call_args(pred)[0]
        inner = sx.receiver(pred)
        if len(args) != 2 or sx.text(args[0]) != "-1" or inner is None:
            continue
        text = f"{src.operand(inner)}.transpose(0, 1).{sx.method_name(pred)}({', '.join(sx.text(a) for a in args)})"
        yield Mutation(
            "time_major_flatten",
            site(lc.file, sx.line(lc.node)),
            f"`{sx.flat(pred)}` -> `{text}` at {lc.file}:{sx.line(lc.node)}",
            (src.replace(lc.file, pred, text, anchor=True),),
        )


@operator("output_ignores_input", "the forward replaces its input with zeros before using it")
def output_ignores_input(src: Source) -> Iterator[Mutation]:
    for cls in sites.trained_classes(src):
        found = _forward(src, cls)
        if found is None:
            continue
        _, fn = found
        x = _input_param(fn)
        body = sites.body_statements(fn)
        if x is None or not body:
            continue
        torch, imports = src.torch_expr(cls.file)
        for spelling, code in (
            ("zeros_like", f"{x} = {torch}.zeros_like({x})"),
            ("times_zero", f"{x} = {x} * 0"),
        ):
            yield Mutation(
                spelling,
                site(cls.file, sx.line(body[0])),
                f"added `{code}` at the top of {cls.qualname}.forward ({cls.file}:{sx.line(body[0])})",
                (*imports, src.insert_before(cls.file, body[0], code, anchor=True)),
                same_as="zeroed",
            )


@operator(
    "activation_misuse",
    "a ReLU on a classifier's logits, a sigmoid on a regressor's output",
)
def activation_misuse(src: Source) -> Iterator[Mutation]:
    kinds = {lc.kind for lc in sites.training_losses(src)}
    if kinds & REGRESSION_LOSSES:
        fn_name, module = "sigmoid", "Sigmoid"
    elif kinds & {"cross_entropy", "bce_logits"}:  # raw logits; a ReLU on NLL's log-probs
        fn_name, module = "relu", "ReLU"  # would zero them all: a constant output instead
    else:
        return
    for cls in sites.trained_classes(src):
        found = _forward(src, cls)
        torch, imports = src.torch_expr(cls.file)
        for ret in sites.returns(found[1]) if found else []:
            text = f"{torch}.{fn_name}({sx.text(ret)})"
            yield Mutation(
                f"output_{fn_name}",
                site(cls.file, sx.line(ret)),
                f"{cls.qualname}.forward returns `{text}` ({cls.file}:{sx.line(ret)})",
                (*imports, src.replace(cls.file, ret, text, anchor=True)),
            )
    for model in sites.trained_models(src):
        if model.ctor_name != "Sequential" or model.ctor is None or model.binding is None:
            continue
        layers = sx.call_args(model.ctor)[0]
        if not layers:
            continue
        nn, imports = src.torch_expr(model.binding.file, "torch.nn")
        file = model.binding.file
        yield Mutation(
            f"sequential_{fn_name}",
            site(file, sx.line(layers[-1])),
            f"`{nn}.{module}()` appended to the Sequential at {file}:{sx.line(model.ctor)}",
            (*imports, src.insert_after_node(file, layers[-1], f", {nn}.{module}()", anchor=True)),
        )
