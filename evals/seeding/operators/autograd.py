"""Stage 5 operators: the autograd graph and the parameters it reaches."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.evals.seeding import sites
from torch_investigate.evals.seeding.operators.base import Mutation, operator, site
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import is_parameter_ctor, last, torch_layer


def forward_assignments(src: Source, cls) -> tuple[str, list[Node]]:
    """Assignment statements of cls.forward whose value calls something: the hidden
    activations (`h = self.act(self.fc1(x))`), in order."""
    found = sites.method(src, cls, "forward")
    if found is None:
        return cls.file, []
    _, fn = found
    stmts = []
    for node in sx.descendants(fn.child_by_field_name("body") or fn):
        if node.type != "expression_statement" or not node.named_children:
            continue
        inner = node.named_children[0]
        right = inner.child_by_field_name("right") if inner.type == "assignment" else None
        if right is not None and any(True for _ in sx.calls_in(right)):
            stmts.append(node)
    return cls.file, stmts


def _right(stmt: Node) -> Node:
    right = stmt.named_children[0].child_by_field_name("right")
    assert right is not None
    return right


def sequential_models(src: Source) -> Iterator[tuple[sites.TrainedModel, int]]:
    """Trained `nn.Sequential` models with their number of layers (>= 2)."""
    for model in sites.trained_models(src):
        if model.ctor_name == "Sequential" and model.ctor is not None:
            n = len(sx.call_args(model.ctor)[0])
            if n >= 2:
                yield model, n


def training_forward(src: Source, model: sites.TrainedModel) -> tuple[str, Node] | None:
    """The call of the model inside a training loop: `model(xb)`."""
    for loop in src.loops():
        for call, node in src.loop_calls(loop):
            if call.callee == model.expr and call.args:
                return call.file, node
    return None


@operator(
    "detached_graph",
    "cut a hidden activation in forward (.detach() / .data), or a Sequential before its head",
)
def detached_graph(src: Source) -> Iterator[Mutation]:
    for cls in sites.trained_classes(src):
        file, stmts = forward_assignments(src, cls)
        for stmt in stmts[:-1] if len(stmts) > 1 else stmts:
            right = _right(stmt)
            for spelling, suffix in (("detach", ".detach()"), ("data", ".data")):
                yield Mutation(
                    spelling,
                    site(file, sx.line(stmt)),
                    f"`{sx.flat(right)}` -> `...{suffix}` in {cls.qualname}.forward "
                    f"({file}:{sx.line(stmt)})",
                    (src.replace(file, right, src.operand(right) + suffix, anchor=True),),
                    same_as="cut",
                )
    for model, _n in sequential_models(src):
        found = training_forward(src, model)
        if found is None:
            continue
        file, call = found
        x, arg = model.expr, sx.call_args(call)[0][0]
        code = f"{x}[-1]({x}[:-1]({sx.text(arg)}).detach())"
        yield Mutation(
            "sequential_detach",
            site(file, sx.line(call)),
            f"`{sx.flat(call)}` -> `{code}` at {file}:{sx.line(call)}",
            (src.replace(file, call, code, anchor=True),),
        )


@operator(
    "no_grad_training",
    "run part of the training forward under torch.no_grad (a hidden layer, or a "
    "Sequential up to its head)",
)
def no_grad_training(src: Source) -> Iterator[Mutation]:
    for cls in sites.trained_classes(src):
        file, stmts = forward_assignments(src, cls)
        torch, imports = src.torch_expr(file)
        for stmt in stmts[:-1] if len(stmts) > 1 else stmts:
            for spelling, ctx in (
                ("no_grad", f"{torch}.no_grad()"),
                ("set_grad_enabled", f"{torch}.set_grad_enabled(False)"),
            ):
                body = src.code(file, stmt).replace("\n", "\n    ")
                code = f"with {ctx}:\n    {body}"
                yield Mutation(
                    spelling,
                    site(file, sx.line(stmt)),
                    f"`{sx.flat(stmt)}` in {cls.qualname}.forward runs under `{ctx}` "
                    f"({file}:{sx.line(stmt)})",
                    (
                        *imports,
                        src.replace(
                            file, stmt, _reindent(code, src.indent(file, stmt)), anchor=True
                        ),
                    ),
                    same_as="grad_off",
                )
    for model, _n in sequential_models(src):
        found = training_forward(src, model)
        if found is None:
            continue
        file, call = found
        torch, imports = src.torch_expr(file)
        x, arg = model.expr, sx.call_args(call)[0][0]
        stmt = src.statement(call)
        name = "features"
        yield Mutation(
            "sequential_no_grad",
            site(file, sx.line(call)),
            f"`{x}[:-1]` runs under {torch}.no_grad() before the head at {file}:{sx.line(call)}",
            (
                *imports,
                src.insert_before(
                    file, stmt, f"with {torch}.no_grad():\n    {name} = {x}[:-1]({sx.text(arg)})",
                    anchor=True,
                ),
                src.replace(file, call, f"{x}[-1]({name})"),
            ),
        )  # fmt: skip


def _reindent(code: str, pad: str) -> str:
    """code's lines after the first indented by pad (the first sits where the old one was)."""
    lines = code.splitlines()
    return "\n".join([lines[0], *(pad + line for line in lines[1:])])


@operator(
    "frozen_parameters",
    "requires_grad_(False) on one layer of the trained model (or requires_grad=False on a "
    "hand-made Parameter)",
)
def frozen_parameters(src: Source) -> Iterator[Mutation]:
    for cls in sites.trained_classes(src):
        layers = sites.parameterized_attributes(src, cls)
        if len(layers) >= 2:
            for spelling, (a, _) in (("first_layer", layers[0]), ("last_layer", layers[-1])):
                stmt = src.statement_on(a.file, a.line)
                if stmt is None:
                    continue
                code = f"{a.target}.requires_grad_(False)"
                yield Mutation(
                    spelling,
                    site(a.file, a.line),
                    f"added `{code}` after {a.file}:{a.line}",
                    (src.insert_after(a.file, stmt, code, anchor=True),),
                )
        params = [
            (c, n)
            for c, n in src.calls(cls.file)
            if is_parameter_ctor(c.resolved) and c.symbol == f"{cls.qualname}.__init__"
        ]
        if len(params) + len(layers) >= 2:
            for call, node in params[:1]:
                yield Mutation(
                    "parameter_flag",
                    site(call.file, call.line),
                    f"`{sx.flat(node)}` gets requires_grad=False ({call.file}:{call.line})",
                    (
                        src.set_kwarg(call.file, node, "requires_grad", "False"),
                        src.mark(call.file, node),
                    ),
                )
    for model in sites.trained_models(src):
        if model.binding is None:
            continue
        stmt = src.statement_on(model.binding.file, model.binding.line)
        if stmt is None:
            continue
        x = model.expr
        if model.ctor_name == "Sequential":
            code = f"{x}[0].requires_grad_(False)"
        elif model.ctor_name == "Linear":
            code = f"{x}.weight.requires_grad_(False)"
        else:
            continue
        yield Mutation(
            "first_layer",
            site(model.binding.file, model.binding.line),
            f"added `{code}` after {model.binding.file}:{model.binding.line}",
            (src.insert_after(model.binding.file, stmt, code, anchor=True),),
        )


def _parameter_calls(src: Source) -> Iterator[tuple[str, Node]]:
    for call, node in src.calls():
        if is_parameter_ctor(call.resolved) and sites.in_module_method(src, call.file, call.line):
            yield call.file, node


@operator(
    "non_leaf_parameters",
    "a hand-made nn.Parameter stored through a copy (`nn.Parameter(w).clone()`): the "
    "module keeps a non-leaf tensor, the optimizer never sees it",
)
def non_leaf_parameters(src: Source) -> Iterator[Mutation]:
    # A copy op with no saved tensors (clone, a device/dtype copy): the graph it adds can
    # be walked by every backward. `nn.Parameter(w) / c` would fail the second backward.
    for file, node in _parameter_calls(src):
        stmt = src.statement(node)
        inner = stmt.named_children[0] if stmt.named_children else None
        if (
            inner is None
            or inner.type != "assignment"
            or inner.child_by_field_name("right") != node
        ):
            continue
        code = f"{sx.text(node)}.clone()"
        yield Mutation(
            "cloned",
            site(file, sx.line(node)),
            f"`{sx.flat(node)}` -> `{code}` ({file}:{sx.line(node)}): a non-leaf copy",
            (src.replace(file, node, code, anchor=True),),
        )


@operator(
    "unregistered_parameters",
    "nn.ModuleList/ModuleDict -> list/dict, or a hand-made nn.Parameter -> a plain tensor",
)
def unregistered_parameters(src: Source) -> Iterator[Mutation]:
    for call, node in src.calls():
        container = last(call.resolved) if torch_layer(call.resolved) else None
        if container not in ("ModuleList", "ModuleDict"):
            continue
        fn = sx.call_function(node)
        assert fn is not None
        plain = "list" if container == "ModuleList" else "dict"
        yield Mutation(
            f"plain_{plain}",
            site(call.file, call.line),
            f"nn.{container} -> {plain} at {call.file}:{call.line}",
            (src.replace(call.file, fn, plain, anchor=True),),
        )
    for file, node in _parameter_calls(src):
        args = sx.call_args(node)[0]
        stmt = src.statement(node)
        inner = stmt.named_children[0] if stmt.named_children else None
        if len(args) != 1 or inner is None or inner.type != "assignment":
            continue
        if inner.child_by_field_name("right") != node:
            continue
        code = f"{src.operand(args[0])}.requires_grad_()"
        yield Mutation(
            "plain_tensor",
            site(file, sx.line(node)),
            f"`{sx.flat(node)}` -> `{code}` ({file}:{sx.line(node)})",
            (src.replace(file, node, code, anchor=True),),
        )


@operator(
    "params_created_in_forward",
    "rebuild a Linear layer inside forward, sized from its input",
)
def params_created_in_forward(src: Source) -> Iterator[Mutation]:
    for cls in sites.trained_classes(src):
        linears = {
            a.target
            for a, _ in sites.layer_attributes(src, cls)
            if torch_layer(a.resolved) == "Linear"
        }
        found = sites.method(src, cls, "forward")
        if not linears or found is None:
            continue
        _, fn = found
        calls = [
            n
            for n in sx.calls_in(fn.child_by_field_name("body") or fn)
            if sx.dotted(sx.call_function(n)) in linears and sx.call_args(n)[0]
        ]
        nn, imports = src.torch_expr(cls.file, "torch.nn")
        for call in reversed(calls):  # the head first
            attr = sx.dotted(sx.call_function(call))
            arg = sx.call_args(call)[0][0]
            width = (
                f"{sx.text(arg)}.shape[-1]" if arg.type == "identifier" else f"{attr}.in_features"
            )
            code = f"{attr} = {nn}.Linear({width}, {attr}.out_features)"
            yield Mutation(
                "linear_in_forward",
                site(cls.file, sx.line(call)),
                f"added `{code}` in {cls.qualname}.forward before {cls.file}:{sx.line(call)}",
                (*imports, src.insert_before(cls.file, src.statement(call), code, anchor=True)),
            )
