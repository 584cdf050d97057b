"""Training and evaluation inputs prepared differently: a transform pipeline with
Normalize on one side only (or with other statistics), or training data standardized
with mean/std while evaluation data is only scaled to [0, 1].
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from tools.code import syntax as sx
from tools.code.checks.base import CheckContext, check, finding, observe, spot
from tools.code.extract import FileUnit
from tools.code.flow import Flow
from tools.code.names import last
from tools.records import Finding

NAME = "preprocessing_mismatch"
TRAIN = re.compile(r"train", re.IGNORECASE)
EVAL = re.compile(r"val|test|eval|infer|predict|inference", re.IGNORECASE)
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
    if EVAL.search(text):
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
