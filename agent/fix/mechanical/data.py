"""Stage 2: what the batches hold and in which order they come."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at, fixer
from torch_investigate.agent.fix.mechanical.edits import remove_transform, upstream_transforms
from torch_investigate.agent.fix.mechanical.fitted import shared_state
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import is_data_loader
from torch_investigate.tools.records import Finding

# a constant scale this far from 1 on a model input is a unit mistake, not a choice
SCALE_LIMIT = 50.0


@fixer(
    "label_misaligned",
    "the statement that reorders the targets (or the inputs) alone removed, so each "
    "input keeps its own target",
)
def label_misaligned(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    yield from remove_transform(ctx, f, "inputs and targets keep their pairing", mutations=False)
    yield from upstream_transforms(ctx, f, "inputs and targets keep their pairing", _reorders)


@fixer(
    "bad_labels",
    "the statement that rewrites the targets after they were read removed",
)
def bad_labels(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    yield from remove_transform(ctx, f, "the targets are the ones the data holds")
    yield from upstream_transforms(ctx, f, "the targets are the ones the data holds")


@fixer("nonfinite_inputs", "the statement that writes non-finite values into the batch removed")
def nonfinite_inputs(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    yield from remove_transform(ctx, f, "the batch holds finite values")
    yield from upstream_transforms(
        ctx, f, "the batch holds finite values", _writes_nonfinite, any_value=True
    )


NONFINITE = ("nan", "inf")


def _writes_nonfinite(stmt: Node) -> bool:
    """A statement that writes a non-finite constant: `float("nan")`, `np.inf`, `math.nan`."""
    for n in sx.descendants(stmt):
        if (
            n.type == "string"
            and (sx.string_value(n) or "").strip().lstrip("+-").lower() in NONFINITE
        ):
            return True
        if n.type == "attribute" and sx.text(n).rsplit(".", 1)[-1].lower() in NONFINITE:
            return True
    return False


def _reorders(stmt: Node) -> bool:
    """A statement that reorders rows: indexing by a permutation, a roll, a flip, a sort."""
    text = sx.text(stmt)
    return any(w in text for w in ("roll", "flip", "perm", "shuffle", "sort", "[::-1]", "randperm"))


@fixer(
    "unshuffled_data",
    "the training data shuffled: `shuffle=True` on the training DataLoader, or a random "
    "permutation instead of an ordered index",
)
def unshuffled_data(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    loaders: list[tuple[str, Node]] = []
    loader = ctx.trace.train_loader() if ctx.trace is not None else None
    if loader is not None and loader.frame is not None and loader.frame.file in src.files:
        call = src.call_on_line(loader.frame.file, loader.frame.line)
        if call is not None and not loader.sampler:
            loaders.append((loader.frame.file, call))
    for file, line in ctx.places(f):  # the DataLoader the finding names
        for site, node in src.calls(file):
            if site.line == line and is_data_loader(site.resolved):
                loaders.append((file, node))
    for file, call in loaders:
        _, keywords = sx.call_args(call)
        if "sampler" in keywords or "batch_sampler" in keywords:
            continue
        yield Candidate(
            f"`shuffle=True` on the training DataLoader ({at(file, call)})",
            (src.set_kwarg(file, call, "shuffle", "True", anchor=True),),
        )
    for file, call in ctx.calls_at(f):
        fn = sx.call_function(call)
        name = sx.text(fn) if fn is not None else ""
        positional, keywords = sx.call_args(call)
        if name.rsplit(".", 1)[-1] != "arange" or len(positional) != 1 or keywords:
            continue
        module = name.rsplit(".", 1)[0] if "." in name else "np"
        n = sx.text(positional[0])
        text = f"{module}.random.permutation({n})" if module != "torch" else f"torch.randperm({n})"
        yield Candidate(
            f"`{sx.flat(call)}` -> `{text}` ({at(file, call)}): batches mix the classes",
            (src.replace(file, call, text, anchor=True),),
        )


def _self_scaled(node: Node) -> Node | None:
    """`x` in `x / x.abs().max()`, `x * 1000.0`, `(x - 3) / 7`...: an input transformed
    by itself or by a constant; None for anything else."""
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return _self_scaled(node.named_children[0])
    if node.type != "binary_operator":
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        return None
    base = _self_scaled(left) or (
        left if left.type in ("identifier", "attribute", "subscript") else None
    )
    if base is None:
        return None
    if sx.number(right) is not None or sx.text(base) in sx.text(right):
        return base
    return None


def model_input_edits(
    ctx: FixContext, file: str, stmt: Node, why: str, *, constant_only: bool
) -> Iterator[Candidate]:
    """A model call's argument that rescales its own input, put back to the input."""
    src = ctx.source
    for call in sx.calls_in(stmt):
        positional, _ = sx.call_args(call)
        for arg in positional:
            base = _self_scaled(arg)
            if base is None:
                continue
            if constant_only:
                right = arg.child_by_field_name("right") if arg.type == "binary_operator" else None
                value = sx.number(right)
                if value is None or not (
                    abs(value) >= SCALE_LIMIT or 0 < abs(value) <= 1 / SCALE_LIMIT
                ):
                    continue
            yield Candidate(
                f"`{sx.flat(arg)[:80]}` -> `{sx.flat(base)[:60]}` ({at(file, arg)}): {why}",
                (src.replace(file, arg, sx.text(base), anchor=True),),
            )


@fixer(
    "preprocessing_mismatch",
    "the evaluation input fed as training feeds it: a rescaling applied only at evaluation "
    "removed, the state fitted on the training data passed to the evaluation data's builder",
)
def preprocessing_mismatch(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        if stmt is not None:
            yield from model_input_edits(ctx, file, stmt, "evaluation sees inputs as training does", constant_only=False)  # fmt: skip
    yield from shared_state(ctx, f)


@fixer(
    "unnormalized_inputs",
    "a constant that blows the model's inputs up (or down) by orders of magnitude removed "
    "at every forward that applies it",
)
def unnormalized_inputs(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    places = list(ctx.places(f))
    if ctx.trace is not None:
        places += [(w.frame.file, w.frame.line) for w in ctx.trace.forwards if w.frame is not None]
    edits = []
    changes = []
    seen: set[tuple[int, int]] = set()
    for file, line in dict.fromkeys(places):
        if file not in ctx.source.files:
            continue
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        for c in model_input_edits(ctx, file, stmt, "", constant_only=True):
            e = c.edits[0]
            if (e.start, e.end) not in seen and all(
                e.file != o.file or e.end <= o.start or e.start >= o.end for o in edits
            ):
                seen.add((e.start, e.end))
                edits.append(e)
                changes.append(c.change.split(" (")[0] + f" ({e.file})")
    if edits:
        first, rest = edits[0], [type(e)(e.file, e.start, e.end, e.text, None) for e in edits[1:]]
        yield Candidate("; ".join(changes) + ": the inputs keep their own scale", (first, *rest))
