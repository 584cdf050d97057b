"""Stage 2 operators: the data the training path reads (pairs, labels, values, scale,
train/eval transforms, splits, order)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.evals.seeding import sites
from torch_investigate.evals.seeding.edits import Edit
from torch_investigate.evals.seeding.operators.base import Mutation, operator, site
from torch_investigate.evals.seeding.operators.loss import FLOAT_TARGET_LOSSES
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import is_data_loader, last, looks_like_model

INPUT_SCALE = "1000.0"


@dataclass
class Bound:
    """A name the training path reads, and where code can go right after it is bound."""

    file: str
    name: str
    binding: sites.Binding
    loss: sites.LossCall | None = None

    def insert(self, src: Source, code: str) -> Edit:
        if self.binding.stmt is not None:
            return src.insert_after(self.file, self.binding.stmt, code, anchor=True)
        assert self.binding.block_first is not None
        return src.insert_before(self.file, self.binding.block_first, code, anchor=True)

    @property
    def line(self) -> int:
        node = self.binding.stmt or self.binding.block_first
        assert node is not None
        return sx.line(node)


def training_targets(src: Source) -> Iterator[Bound]:
    """The target of each training loss, where it is bound (not the input itself, as
    in an autoencoder's `mse(model(x), x)`)."""
    for lc in sites.training_losses(src):
        target, pred = lc.target, lc.prediction
        name = sites.base_name(target) if target is not None else None
        if name is None or pred is None or name in sx.identifiers_in(pred):
            continue
        binding = sites.binding_before(lc.node, name)
        if binding is not None and (binding.stmt or binding.block_first):
            yield Bound(lc.file, name, binding, lc)


def _model_derived(node: Node) -> bool:
    """node calls a model-like callee, or names a value bound from one."""
    for call in sx.calls_in(node, into_scopes=True):
        if looks_like_model(sx.dotted(sx.call_function(call)) or ""):
            return True
    name = sites.base_name(node)
    if name is None:
        return False
    bound = sites.binding_before(node, name)
    if bound is None or bound.stmt is None:
        return False
    return any(
        looks_like_model(sx.dotted(sx.call_function(c)) or "")
        for c in sx.calls_in(bound.stmt, into_scopes=True)
    )


def model_inputs(src: Source, *, training: bool | None = None) -> list[tuple[str, Node]]:
    """First arguments of model forwards outside model code that carry raw data (not a
    model's output): training ones, evaluation ones, or all (None)."""
    names = {m.expr for m in sites.trained_models(src)}
    found = []
    for call, node in src.calls():
        if not call.args or not (call.callee in names or looks_like_model(call.callee)):
            continue
        if sites.in_module_method(src, call.file, call.line):
            continue
        in_loop = any(src.in_loop(lp, call.file, call.line) for lp in src.loops())
        if training is not None and in_loop != training:
            continue
        if training is False and not sites.under_grad_off(node):
            continue
        arg = sx.call_args(node)[0][0]
        if arg.type in ("list_splat", "dictionary_splat") or _model_derived(arg):
            continue
        found.append((call.file, arg))
    return found


@operator(
    "label_misaligned",
    "targets shifted by one row against their inputs (off by one) right where they are bound",
)
def label_misaligned(src: Source) -> Iterator[Mutation]:
    # A fixed misalignment, as a real one is: one batch replayed keeps its (wrong) pairs,
    # so it can still be memorized, while nothing transfers to held-out data. A fresh
    # permutation per step would instead be label noise that no batch can fit.
    for t in training_targets(src):
        code = f"{t.name} = {t.name}.roll(1, 0)"
        yield Mutation(
            "shifted_targets",
            site(t.file, t.line),
            f"added `{code}` after `{t.name}` is bound ({t.file}:{t.line})",
            (t.insert(src, code),),
        )


@operator("bad_labels", "targets made constant (all zeros), or 0/1 targets recoded as -1/+1")
def bad_labels(src: Source) -> Iterator[Mutation]:
    for t in training_targets(src):
        torch, imports = src.torch_expr(t.file)
        variants = [("constant", f"{t.name} = {torch}.zeros_like({t.name})", imports)]
        if t.loss is not None and t.loss.kind in ("bce_logits", "bce"):
            variants.append(("plus_minus_one", f"{t.name} = {t.name} * 2 - 1", []))
        for spelling, code, extra in variants:
            yield Mutation(
                spelling,
                site(t.file, t.line),
                f"added `{code}` after `{t.name}` is bound ({t.file}:{t.line})",
                (*extra, t.insert(src, code)),
            )


@operator(
    "nonfinite_inputs", "a NaN written into the first row of the training inputs (or targets)"
)
def nonfinite_inputs(src: Source) -> Iterator[Mutation]:
    for file, arg in model_inputs(src, training=True):
        name = sites.base_name(arg)
        binding = sites.binding_before(arg, name) if name else None
        if name is None or binding is None or not (binding.stmt or binding.block_first):
            continue
        bound = Bound(file, name, binding)
        code = f'{name}[0] = float("nan")'
        yield Mutation(
            "nan_input",
            site(file, bound.line),
            f"added `{code}` after `{name}` is bound ({file}:{bound.line})",
            (bound.insert(src, code),),
        )
    for t in training_targets(src):
        if t.loss is None or t.loss.kind not in FLOAT_TARGET_LOSSES:
            continue
        code = f'{t.name}[0] = float("nan")'
        yield Mutation(
            "nan_target",
            site(t.file, t.line),
            f"added `{code}` after `{t.name}` is bound ({t.file}:{t.line})",
            (t.insert(src, code),),
        )


@operator(
    "unnormalized_inputs",
    f"every model forward is fed its raw-data input times {INPUT_SCALE}",
)
def unnormalized_inputs(src: Source) -> Iterator[Mutation]:
    inputs = model_inputs(src)
    training = [
        (f, a) for f, a in inputs if any(src.in_loop(lp, f, sx.line(a)) for lp in src.loops())
    ]
    if not training:
        return
    first_file, first_arg = training[0]
    edits = [
        src.replace(f, a, f"{src.operand(a)} * {INPUT_SCALE}", anchor=a is first_arg)
        for f, a in inputs
    ]
    where = ", ".join(f"{f}:{sx.line(a)}" for f, a in inputs)
    yield Mutation(
        "scaled_inputs",
        site(first_file, sx.line(first_arg)),
        f"model inputs multiplied by {INPUT_SCALE} at {where}",
        tuple(edits),
    )


@operator(
    "preprocessing_mismatch",
    "evaluation inputs rescaled by their max (training inputs untouched), or the "
    "evaluation copy of a standardization deleted",
)
def preprocessing_mismatch(src: Source) -> Iterator[Mutation]:
    for file, arg in model_inputs(src, training=False):
        x = src.operand(arg)
        text = f"{x} / {x}.abs().max()"
        yield Mutation(
            "eval_max_scaled",
            site(file, sx.line(arg)),
            f"evaluation input `{sx.flat(arg)}` -> `{text}` at {file}:{sx.line(arg)}",
            (src.replace(file, arg, text, anchor=True),),
        )
    for file in src.files:
        groups: dict[str, list[Node]] = {}
        for stmt in _standardizations(src, file):
            right = stmt.named_children[0].child_by_field_name("right")
            assert right is not None
            _, stats = _standardized(right)  # type: ignore[misc]
            groups.setdefault(stats, []).append(stmt)
        for stmts in groups.values():
            if len(stmts) >= 2:
                stmt = stmts[-1]
                yield Mutation(
                    "eval_standardization_deleted",
                    site(file, sx.line(stmt)),
                    f"deleted `{sx.flat(stmt)}` ({file}:{sx.line(stmt)}); "
                    f"`{sx.flat(stmts[0])}` still runs",
                    (src.delete(file, stmt, anchor=True),),
                )


def _standardizations(src: Source, file: str) -> Iterator[Node]:
    """`a = (a - m) / s` statements: the variable rebound to its standardized self."""
    for node in sx.descendants(src.unit(file).tree.root_node, into_scopes=True):
        if node.type != "expression_statement" or not node.named_children:
            continue
        inner = node.named_children[0]
        if inner.type != "assignment":
            continue
        left, right = inner.child_by_field_name("left"), inner.child_by_field_name("right")
        parsed = _standardized(right) if right is not None else None
        if left is not None and parsed is not None and parsed[0] == sx.text(left):
            yield node


def _standardized(node: Node) -> tuple[str, str] | None:
    """(x, "m|s") for `(x - m) / s`, else None."""
    if node.type != "binary_operator":
        return None
    op = node.child_by_field_name("operator")
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if op is None or sx.text(op) != "/" or left is None or right is None:
        return None
    if left.type == "parenthesized_expression" and left.named_children:
        left = left.named_children[0]
    if left.type != "binary_operator":
        return None
    sub = left.child_by_field_name("operator")
    x, m = left.child_by_field_name("left"), left.child_by_field_name("right")
    if sub is None or sx.text(sub) != "-" or x is None or m is None:
        return None
    return sx.text(x), f"{sx.text(m)}|{sx.text(right)}"


@operator(
    "split_leakage",
    "the held-out loader reads the training dataset, or a `[:k]`/`[k:]` split keeps "
    "every row on both sides",
)
def split_leakage(src: Source) -> Iterator[Mutation]:
    for file in src.files:
        loaders = [(c, n) for c, n in src.calls(file) if is_data_loader(c.resolved)]
        train = [
            (c, n) for c, n in loaders if sx.flat(sx.argument(n, None, "shuffle") or n) == "True"
        ]
        if len(train) != 1:
            continue
        train_ds = sx.argument(train[0][1], 0, "dataset")
        for call, node in loaders:
            ds = sx.argument(node, 0, "dataset")
            if (call, node) == train[0] or ds is None or train_ds is None:
                continue
            if call.symbol != train[0][0].symbol:
                continue
            yield Mutation(
                "eval_loader_reads_train",
                site(file, call.line),
                f"held-out DataLoader at {file}:{call.line} reads `{sx.flat(train_ds)}`",
                (src.replace(file, ds, sx.text(train_ds), anchor=True),),
            )
    for file in src.files:
        for (scope, k), slices in _complementary_slices(src, file).items():
            ordered = sorted(slices, key=lambda n: n.start_byte)
            edits = [src.replace(file, s, ":", anchor=i == 0) for i, s in enumerate(ordered)]
            yield Mutation(
                "split_keeps_all",
                site(file, sx.line(ordered[0])),
                f"the split at `{k}` in {scope} ({file}:{sx.line(ordered[0])}) keeps every "
                "row on both sides",
                tuple(edits),
            )


def _complementary_slices(src: Source, file: str) -> dict[tuple[str, str], list[Node]]:
    """(scope, k) -> the slices of `a[:k]` / `a[k:]` reads with a named k, when both
    sides occur for some `a`: a split. All arrays cut at the same k move together."""
    sides: dict[tuple[str, str, str], set[str]] = {}
    slices: dict[tuple[str, str], list[Node]] = {}
    for node in sx.descendants(src.unit(file).tree.root_node, into_scopes=True):
        if node.type != "subscript" or _assigned_to(node):
            continue
        value = node.child_by_field_name("value")
        index = [c for c in node.named_children if value is None or c.id != value.id]
        if value is None or len(index) != 1 or index[0].type != "slice":
            continue
        lo, colon, hi = sx.text(index[0]).partition(":")
        lo, hi = lo.strip(), hi.strip()
        if not colon or ":" in hi or bool(lo) == bool(hi):
            continue
        k = hi or lo
        if not k.isidentifier():
            continue
        scope = src.index.enclosing_symbol(file, sx.line(node))
        sides.setdefault((scope, sx.text(value), k), set()).add("head" if hi else "tail")
        slices.setdefault((scope, k), []).append(index[0])
    split = {(scope, k) for (scope, _, k), seen in sides.items() if len(seen) == 2}
    return {key: found for key, found in slices.items() if key in split}


def _assigned_to(node: Node) -> bool:
    """node is (part of) the left side of an assignment: `X[:n, 0] = ...`."""
    child, parent = node, node.parent
    while parent is not None and parent.type not in ("expression_statement", "block", "module"):
        if parent.type in ("assignment", "augmented_assignment"):
            return parent.child_by_field_name("left") == child
        child, parent = parent, parent.parent
    return False


@operator(
    "unshuffled_data",
    "shuffle=False on the training DataLoader (over a TensorDataset sorted by label when "
    "the data is not already ordered)",
)
def unshuffled_data(src: Source) -> Iterator[Mutation]:
    # `shuffle=False` is the defect only over ordered data. Over a TensorDataset the data
    # is put in label order too (where it already is, that sort changes nothing); over
    # any other dataset, the verification run decides whether the order mattered.
    for call, node in src.calls():
        shuffle = sx.argument(node, None, "shuffle")
        if not is_data_loader(call.resolved) or shuffle is None or sx.text(shuffle) != "True":
            continue
        ds = sx.argument(node, 0, "dataset")
        tensors = sx.call_args(ds)[0] if ds is not None and ds.type == "call" else []
        is_tensor_dataset = (
            ds is not None
            and ds.type == "call"
            and (last(sx.dotted(sx.call_function(ds)) or "") == "TensorDataset")
        )
        if not (is_tensor_dataset and len(tensors) == 2):
            yield Mutation(
                "no_shuffle",
                site(call.file, call.line),
                f"shuffle=False on the training DataLoader at {call.file}:{call.line}",
                (src.replace(call.file, shuffle, "False", anchor=True),),
            )
            continue
        order = f"{src.operand(tensors[1])}.flatten().argsort(stable=True)"
        edits = (
            src.replace(call.file, shuffle, "False", anchor=True),
            src.replace(call.file, tensors[0], f"{src.operand(tensors[0])}[{order}]"),
            src.replace(call.file, tensors[1], f"{src.operand(tensors[1])}[{order}]"),
        )
        yield Mutation(
            "sorted_no_shuffle",
            site(call.file, call.line),
            f"training TensorDataset sorted by label and shuffle=False at {call.file}:{call.line}",
            edits,
        )
