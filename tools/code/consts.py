"""Numeric values of expressions: literals, constants and argparse defaults.

`clip_grad_norm_(params, args.clip)` is as clear as a literal when the repo says
`parser.add_argument("--clip", type=float, default=0.001)`.
"""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import Analysis
from torch_investigate.tools.code.flow import EvalContext, Value

ARGS_NAMES = frozenset(
    {"args", "opt", "opts", "options", "hparams", "cfg", "config", "FLAGS", "flags"}
)


def number_value(a: Analysis, v: Value, depth: int = 0) -> float | None:
    literal = sx.number(v.node)
    if literal is not None or depth > 4:
        return literal
    node = v.node
    if node.type == "identifier":
        found = a.flow.lookup(sx.text(node), v.frame, node)
        values = []
        for binding, frame in found:
            if (
                binding.kind in ("assign", "param")
                and binding.value is not None
                and not binding.index
            ):
                values.append(number_value(a, Value(binding.value, frame), depth + 1))
        if values and all(x is not None and x == values[0] for x in values):
            return values[0]
        if not found:
            return _imported_constant(a, v, depth)
        return None
    if node.type == "attribute":
        obj = node.child_by_field_name("object")
        attr = node.child_by_field_name("attribute")
        if obj is None or attr is None:
            return None
        found = _config_attribute(a, Value(obj, v.frame), sx.text(attr), depth)
        if found is not None:
            return found
        if sx.text(obj).rsplit(".", 1)[-1] in ARGS_NAMES:
            return argparse_default(a, sx.text(attr))
    return None


def _config_attribute(a: Analysis, obj: Value, attr: str, depth: int) -> float | None:
    """`cfg.step_size` where cfg is an instance of a repo (data)class: the keyword the
    constructor passes, else the class default."""
    for o in a.flow.objects(obj, budget=60):
        if o.kind != "instance" or o.symbol is None:
            continue
        if o.ctor is not None:
            given = sx.argument(o.ctor.node, None, attr)
            if given is not None:
                return number_value(a, Value(given, o.ctor.frame), depth + 1)
        for unit, binding in a.flow.attribute_bindings(o.symbol, attr):
            if binding.value is not None and binding.kind == "assign":
                frame = EvalContext(unit, binding.scope)
                return number_value(a, Value(binding.value, frame), depth + 1)
    return None


def _imported_constant(a: Analysis, v: Value, depth: int) -> float | None:
    unit = v.frame.unit
    target = unit.imports.get(sx.text(v.node))
    if target is None or "." not in target:
        return None
    prefix, _, member = target.rpartition(".")
    module = a.index.module_for(prefix, unit)
    if module is None:
        return None
    module_frame = EvalContext(module, None)
    for binding in a.flow.bindings(module_frame).get(member, [])[-1:]:
        if binding.value is not None:
            return number_value(a, Value(binding.value, module_frame), depth + 1)
    return None


def argparse_default(a: Analysis, dest: str) -> float | None:
    """The numeric default of `--dest` (or `--de-st`) in any add_argument of the repo."""
    site = argparse_default_site(a, dest)
    return sx.number(site[1]) if site is not None else None


def argparse_default_site(a: Analysis, dest: str) -> tuple[str, Node] | None:
    """The file and the `default=` node of the first add_argument of the repo for `dest`."""
    for unit in a.index.units.values():
        for call in unit.call_nodes:
            if sx.method_name(call) != "add_argument":
                continue
            if _dest(call) != dest:
                continue
            default = sx.argument(call, None, "default")
            return (unit.file, default) if default is not None else None
    return None


def _dest(call: Node) -> str | None:
    explicit = sx.argument(call, None, "dest")
    if explicit is not None:
        return sx.string_value(explicit)
    positional, _ = sx.call_args(call)
    names = [sx.string_value(p) for p in positional]
    longs = [n for n in names if n and n.startswith("--")]
    name = longs[0] if longs else next((n for n in names if n), None)
    if name is None:
        return None
    return name.lstrip("-").replace("-", "_")
