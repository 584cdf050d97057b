"""Rough tensor ranks from code: enough to see `[N, 1]` against `[N]`.

`rank(v)` answers 1 for `torch.randn(100)`, `x[:, 3]`, `df["y"].values`, `t.view(-1)`;
2 for `torch.randn(100, 1)`, `t.unsqueeze(1)`, `t.view(-1, 1)`; None when unsure. It
follows local names, arithmetic (the larger rank wins) and batches of
`DataLoader(TensorDataset(a, b))`.
"""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import Analysis
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.names import last

FACTORIES = frozenset({"randn", "rand", "zeros", "ones", "empty", "full", "normal"})
RANGES = frozenset({"arange", "linspace", "logspace"})
SAME_RANK_METHODS = frozenset(
    {
        "float",
        "double",
        "long",
        "to",
        "cuda",
        "cpu",
        "detach",
        "clone",
        "contiguous",
        "abs",
        "exp",
        "log",
        "sigmoid",
        "tanh",
        "relu",
    }
)
MAX_DEPTH = 8


def rank(a: Analysis, v: Value, depth: int = 0) -> int | None:
    node = v.node
    if depth > MAX_DEPTH:
        return None
    t = node.type
    if t in ("integer", "float"):
        return 0
    if t == "parenthesized_expression" and node.named_children:
        return rank(a, Value(node.named_children[0], v.frame), depth + 1)
    if t == "identifier":
        found = a.flow.lookup(sx.text(node), v.frame, node)
        ranks = []
        for binding, frame in found:
            if binding.kind == "for" and binding.value is not None:
                ranks.append(_element_rank(a, Value(binding.value, frame, binding.index), depth))
            elif binding.kind == "assign" and binding.value is not None and not binding.index:
                ranks.append(rank(a, Value(binding.value, frame), depth + 1))
            else:
                ranks.append(None)
        return ranks[0] if ranks and all(r == ranks[0] for r in ranks) else None
    if t == "binary_operator":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        parts = [rank(a, Value(p, v.frame), depth + 1) for p in (left, right) if p is not None]
        if len(parts) != 2 or parts[0] is None or parts[1] is None:
            return None
        left_rank, right_rank = parts
        op = node.child_by_field_name("operator")
        if op is not None and sx.text(op) == "@":  # matrix products contract one axis
            if left_rank == 1 and right_rank == 1:
                return 0
            if right_rank == 1 or left_rank == 1:
                return max(left_rank, right_rank) - 1
        return max(left_rank, right_rank)
    if t == "subscript":
        return _subscript_rank(a, v, depth)
    if t == "attribute":
        attr = sx.text(node.child_by_field_name("attribute") or node)
        obj = node.child_by_field_name("object")
        if attr == "values" and obj is not None and obj.type == "subscript":
            return 1  # a pandas column
        return None
    if t == "call":
        return _call_rank(a, v, depth)
    return None


def _call_rank(a: Analysis, v: Value, depth: int) -> int | None:
    node = v.node
    method = sx.method_name(node)
    recv = sx.receiver(node)
    args, _ = sx.call_args(node)
    resolved = v.frame.unit.resolve_callee(sx.call_function(node))[1]
    if method is not None and recv is not None and not resolved.startswith("torch."):
        if method in SAME_RANK_METHODS:
            return rank(a, Value(recv, v.frame), depth + 1)
        if method in ("squeeze", "flatten", "ravel"):
            return 1 if method != "squeeze" or not args else None
        if method in ("view", "reshape"):
            return len(args) if args and all(x.type != "list_splat" for x in args) else None
        if method == "unsqueeze":
            inner = rank(a, Value(recv, v.frame), depth + 1)
            return inner + 1 if inner is not None else None
        if method == "to_numpy" and recv.type == "subscript":
            return 1
        return None
    name = last(resolved)
    if not resolved.startswith(("torch.", "numpy.")):
        return None
    if name in FACTORIES:
        if len(args) == 1 and args[0].type in ("tuple", "list"):
            return len(args[0].named_children)
        return (
            len(
                [
                    x
                    for x in args
                    if x.type in ("integer", "identifier", "attribute", "call", "binary_operator")
                ]
            )
            or None
        )
    if name in RANGES:
        return 1
    if name in ("tensor", "array", "as_tensor", "asarray", "FloatTensor", "Tensor", "from_numpy"):
        if not args:
            return None
        if args[0].type in ("list", "tuple"):
            return _literal_rank(args[0])
        return rank(a, Value(args[0], v.frame), depth + 1)
    if name == "randint":
        size = sx.argument(node, 2, "size")
        return len(size.named_children) if size is not None and size.type == "tuple" else None
    return None


def _literal_rank(node: Node) -> int | None:
    depth = 0
    while node.type in ("list", "tuple"):
        depth += 1
        children = [c for c in node.named_children if c.type != "comment"]
        if not children:
            return depth
        node = children[0]
    return depth if node.type in ("integer", "float", "unary_operator") else None


def _subscript_rank(a: Analysis, v: Value, depth: int) -> int | None:
    node = v.node
    value = node.child_by_field_name("value")
    if value is None:
        return None
    indices = [c for c in node.named_children[1:] if c.type != "comment"]
    base = rank(a, Value(value, v.frame), depth + 1)
    if len(indices) == 2 and indices[0].type == "slice" and sx.number(indices[1]) is not None:
        return base - 1 if base is not None else 1  # a column: X[:, k]
    if len(indices) == 1 and indices[0].type == "string":
        return 1  # a pandas column
    if len(indices) == 1 and indices[0].type in ("slice", "identifier", "call", "attribute"):
        return base  # rows: X[i:j], X[idx]
    return None


def _element_rank(a: Analysis, iterable: Value, depth: int) -> int | None:
    """Rank of `y` in `for x, y in DataLoader(TensorDataset(X, Y))`: the rank of Y."""
    tensor = loader_tensor(a, iterable)
    return rank(a, tensor, depth + 1) if tensor is not None else None


def loader_tensor(a: Analysis, iterable: Value) -> Value | None:
    """The TensorDataset argument that element `iterable.index` of a DataLoader batch
    comes from (`Y` for the `y` of `for x, y in DataLoader(TensorDataset(X, Y))`)."""
    if len(iterable.index) != 1:
        return None
    for obj in a.flow.objects(Value(iterable.node, iterable.frame), budget=60):
        if obj.kind != "external" or obj.ctor is None or last(obj.resolved) != "DataLoader":
            continue
        dataset = sx.argument(obj.ctor.node, 0, "dataset")
        if dataset is None:
            continue
        for ds in a.flow.objects(Value(dataset, obj.ctor.frame), budget=60):
            if (
                ds.kind == "external"
                and ds.ctor is not None
                and last(ds.resolved) == "TensorDataset"
            ):
                tensor = sx.argument(ds.ctor.node, iterable.index[0])
                if tensor is not None:
                    return Value(tensor, ds.ctor.frame)
    return None
