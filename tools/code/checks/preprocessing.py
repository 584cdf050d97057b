"""Training and evaluation inputs prepared differently: a transform pipeline with
Normalize on one side only (or with other statistics), or training data standardized
with mean/std while evaluation data is only scaled to [0, 1].
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.events import Occurrence
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import Flow
from torch_investigate.tools.code.names import EVALUATION_NAME, EVALUATION_TEXT, last
from torch_investigate.tools.code.params import same_object
from torch_investigate.tools.records import Finding

NAME = "preprocessing_mismatch"
TRAIN = re.compile(r"train", re.IGNORECASE)
MEAN = re.compile(r"mean|mu\b|avg", re.IGNORECASE)
STD = re.compile(r"std|sigma|stdev", re.IGNORECASE)


@dataclass
class _Prep:
    role: str  # "train" or "eval"
    group: str  # only preparations of one group are compared: `x_train`/`x_test` -> "x"
    node: Node  # where it is defined
    normalize: str | None  # the Normalize(...) arguments, or "standardize", or None
    scaled_only: bool  # divides by 255 and nothing else


@check(NAME, "preprocessing_mismatch")
def preprocessing_mismatch(ctx: CheckContext) -> Iterator[Finding]:
    """Normalization present (or different) on one side only."""
    yield from _model_inputs(ctx)
    for unit in ctx.index.units.values():
        if b"train" not in unit.source.lower():
            continue
        preps = list(_pipelines(ctx.flow, unit)) + list(_manual(unit))
        train = [p for p in preps if p.role == "train"]
        evals = [p for p in preps if p.role == "eval"]
        for e in evals:
            for t in (t for t in train if t.group == e.group):
                found = _compare(ctx, unit, t, e)
                if found is not None:
                    yield found
                    break


def _role(text: str) -> str | None:
    if EVALUATION_TEXT.search(text):
        return "eval"
    if TRAIN.search(text):
        return "train"
    return None


ROLE_WORDS = re.compile(
    r"train(ing)?|valid(ation)?|val|test(ing)?|eval(uation)?|inference|infer|predict(ion)?"
)


def _context(node: Node) -> tuple[str, str]:
    """(name, group) of the place a value is bound to: an assignment target, a dict key
    (grouped by its dict), a keyword or a function. The group is the name without its
    split word, so `x_train` pairs with `x_test` and `train_tf` with `test_tf`."""
    for anc in sx.ancestors(node):
        if anc.type == "pair":
            key = anc.child_by_field_name("key")
            owner = anc.parent
            return (sx.flat(key) if key is not None else ""), f"dict@{owner.id if owner else 0}"
        if anc.type in ("assignment", "keyword_argument", "function_definition"):
            if anc.type == "function_definition":
                name = sx.function_name(anc)
            else:
                target = anc.child_by_field_name("left" if anc.type == "assignment" else "name")
                name = sx.flat(target) if target is not None else ""
            return name, ROLE_WORDS.sub("", name.lower()).strip("_. ")
    return "", ""


def _normalize_args(flow: Flow, unit: FileUnit, compose: Node) -> str | None:
    """The arguments of the Normalize step of a Compose (followed through names)."""
    steps = sx.argument(compose, 0, "transforms")
    if steps is None:
        return None
    for step in steps.named_children:
        for origin in flow.trace(flow.value(unit, step), budget=40):
            node = origin.node
            fn = sx.call_function(node) if node.type == "call" else None
            if (
                fn is not None
                and last(origin.value.frame.unit.resolve_callee(fn)[1]) == "Normalize"
            ):
                return sx.flat(node.child_by_field_name("arguments") or node)
    return None


def _pipelines(flow: Flow, unit: FileUnit) -> Iterator[_Prep]:
    for call in unit.call_nodes:
        fn = sx.call_function(call)
        if fn is None or last(unit.resolve_callee(fn)[1]) != "Compose":
            continue
        name, group = _context(call)
        role = _role(name)
        if role is None:
            continue
        yield _Prep(role, group, call, _normalize_args(flow, unit, call), False)


def _manual(unit: FileUnit) -> Iterator[_Prep]:
    """Assignments / returns that standardize or only scale, named for one split."""
    root = unit.tree.root_node
    for node in [root, *sx.descendants(root, into_scopes=True)]:
        if node.type == "assignment":
            value = node.child_by_field_name("right")
        elif node.type == "return_statement" and node.named_children:
            value = node.named_children[0]
        else:
            continue
        if value is None:
            continue
        name, group = _context(value)
        role = _role(name)
        if role is None:
            continue
        if _standardizes(value):
            yield _Prep(role, group, node, "standardize", False)
        elif _scales_only(value):
            yield _Prep(role, group, node, None, True)


def _standardizes(value: Node) -> bool:
    for node in [value, *sx.descendants(value)]:
        if node.type != "binary_operator":
            continue
        op = node.child_by_field_name("operator")
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if op is None or left is None or right is None or sx.text(op) != "/":
            continue
        if STD.search(sx.flat(right)) and "-" in sx.flat(left) and MEAN.search(sx.flat(left)):
            return True
    return False


def _scales_only(value: Node) -> bool:
    text = sx.flat(value).replace(" ", "")
    return (
        bool(re.search(r"/255(\.0*)?\b", text)) and not MEAN.search(text) and not STD.search(text)
    )


def _compare(ctx: CheckContext, unit: FileUnit, train: _Prep, evaluation: _Prep) -> Finding | None:
    if train.normalize == evaluation.normalize and not (evaluation.scaled_only and train.normalize):
        return None
    if train.normalize is None and evaluation.normalize is None:
        return None
    if (
        train.normalize is not None
        and evaluation.normalize is not None
        and "standardize" in (train.normalize, evaluation.normalize)
    ):
        return None  # different spellings of the same thing: not comparable
    if train.normalize == "standardize" and not evaluation.scaled_only:
        return None  # eval side not visibly different
    if evaluation.normalize == "standardize" and not train.scaled_only:
        return None
    t_at = spot(ctx, ctx.flow.value(unit, train.node))
    e_at = spot(ctx, ctx.flow.value(unit, evaluation.node))
    describe = {None: "no normalization", "standardize": "standardization with mean/std"}
    t_desc = describe.get(train.normalize, f"Normalize{train.normalize}")
    e_desc = describe.get(evaluation.normalize, f"Normalize{evaluation.normalize}")
    if evaluation.scaled_only:
        e_desc = "only a division by 255"
    return finding(
        "preprocessing_mismatch",
        e_at,
        confidence="medium",
        evidence=[
            observe(t_at, f"training inputs get {t_desc}"),
            observe(e_at, f"evaluation inputs get {e_desc}"),
        ],
        why=(
            "The model sees inputs on one scale in training and another in evaluation: its "
            "learned weights do not fit the evaluation inputs, so evaluation numbers are poor "
            "even when training went well."
        ),
        confirm=(
            "Compare per-feature mean/std of a training batch and an evaluation batch (they "
            f"differ far more than noise); then apply the training preprocessing at {e_at.file}:{e_at.line}."
        ),
    )


def _transform(node: Node) -> str | None:
    """The arithmetic applied to a model input at the call (`x / x.abs().max()`), None
    for the batch as it comes (`x`, `x.to(device)`, `x[idx]`)."""
    while node.type == "call" and sx.method_name(node) in (
        "to",
        "cuda",
        "float",
        "cpu",
        "unsqueeze",
        "view",
    ):
        recv = sx.receiver(node)
        if recv is None:
            break
        node = recv
    if node.type == "parenthesized_expression" and node.named_children:
        return _transform(node.named_children[0])
    if node.type == "binary_operator":
        return sx.flat(node)
    return None


def _same_model(a: Occurrence, b: Occurrence) -> bool:
    mine = [x for x in a.event.objects if x.kind in ("instance", "external")]
    theirs = [x for x in b.event.objects if x.kind in ("instance", "external")]
    if mine and theirs:
        return any(same_object(x, y) for x in mine for y in theirs)
    text = (sx.flat(a.event.receiver) if a.event.receiver is not None else "").removeprefix("self.")
    other = (sx.flat(b.event.receiver) if b.event.receiver is not None else "").removeprefix(
        "self."
    )
    return bool(text) and text == other


def _model_inputs(ctx: CheckContext) -> Iterator[Finding]:
    """A model fed the raw batch in training but a rescaled input in evaluation (or the
    reverse), at the call sites themselves."""
    a = ctx.analysis
    train_calls: list[tuple[Occurrence, str | None]] = []
    for loop in a.training_loops:
        for o in loop.occurrences:
            if o.kind == "forward" and not o.grad_disabled and o.event.receiver is not None:
                first = sx.argument(o.event.value.node, 0)
                if first is not None:
                    train_calls.append((o, _transform(first)))
    reported: set[int] = set()
    for region in a.regions():
        named = EVALUATION_NAME.search(region.qualname.rsplit(".", 1)[-1])
        text = region.node.text if region.node is not None else b""
        if region.node is None or not (named or b"no_grad" in text or b"inference_mode" in text):
            continue
        for o in a.programs.flatten(a.program(region)):
            if o.kind != "forward" or o.event.receiver is None or o.event.value.node.id in reported:
                continue
            if not (named or o.grad_disabled) or (o.loops and a.loop_trains(o.loops[-1])):
                continue  # not evaluation: a training step's own forward
            first = sx.argument(o.event.value.node, 0)
            trained = [(t.event.value, tf) for t, tf in train_calls if _same_model(t, o)]
            if first is None or not trained:
                continue
            here = _transform(first)
            if here is None or any(t is not None for _, t in trained):
                continue  # same treatment, or training rescales too
            reported.add(o.event.value.node.id)
            at = spot(ctx, o.event.value)
            train_at = spot(ctx, trained[0][0])
            yield finding(
                NAME,
                at,
                confidence="medium",
                evidence=[
                    observe(train_at, "in training the model gets the batch as it comes"),
                    observe(at, f"in evaluation it gets `{here}`"),
                ],
                why=(
                    "Evaluation inputs are rescaled in a way training inputs never were: the "
                    "model sees a different input distribution at evaluation, so the metric "
                    "says little about what it learned."
                ),
                confirm=(
                    "Compare mean/std of the model input in a training step and at "
                    f"{at.file}:{at.line}; then feed evaluation the same preprocessing as training."
                ),
            )
