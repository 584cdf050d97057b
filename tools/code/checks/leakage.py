"""Evaluation data that is the training data: a held-out loader built over the training
dataset (or over the same tensors), so validation measures memorization."""

from __future__ import annotations

from collections.abc import Iterator

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.checks.loaders import LoaderSite, is_eval_named, loaders
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.names import TRAIN_FALSE, TRAINING_TEXT
from torch_investigate.tools.records import Finding

NAME = "split_leakage"


@check(NAME, "split_leakage")
def split_leakage(ctx: CheckContext) -> Iterator[Finding]:
    """A validation/test DataLoader reading the training dataset."""
    sites = loaders(ctx.analysis)
    training = [s for s in sites if s.trains and not is_eval_named(s)]
    for site in sites:
        if not is_eval_named(site) or TRAINING_TEXT.search(_target(site)):
            continue  # `train_eval_loader` measures training accuracy on purpose
        dataset = _dataset_text(site)
        shared = next((t for t in training if t is not site and _same_dataset(ctx, t, site)), None)
        names_training = (
            dataset and TRAINING_TEXT.search(dataset) and not TRAIN_FALSE.search(dataset)
        )
        if shared is None and not names_training:
            continue
        at = spot(ctx, site.ctor)
        evidence = [observe(at, f"the evaluation loader reads `{dataset}`")]
        if shared is not None:
            evidence.append(
                observe(spot(ctx, shared.ctor), "the same data the training loader reads")
            )
        yield finding(
            NAME,
            at,
            confidence="high" if shared is not None else "medium",
            evidence=evidence,
            why=(
                "Validation runs on examples the model trains on: the metric measures "
                "memorization, looks far better than held-out performance, and hides "
                "overfitting or a model that does not generalize."
            ),
            confirm=(
                "Hash the rows of a validation batch and look them up among training rows "
                f"(they all match); then build the loader at {at.file}:{at.line} over the "
                "held-out split."
            ),
        )


def _target(site: LoaderSite) -> str:
    statement = sx.statement_of(site.ctor.node)
    node = (
        statement.named_children[0]
        if statement.type == "expression_statement" and statement.named_children
        else statement
    )
    left = node.child_by_field_name("left") if node.type == "assignment" else None
    return sx.flat(left) if left is not None else ""


def _dataset_text(site: LoaderSite) -> str:
    arg = sx.argument(site.ctor.node, 0, "dataset")
    return sx.flat(arg) if arg is not None else ""


def _same_dataset(ctx: CheckContext, a: LoaderSite, b: LoaderSite) -> bool:
    first = sx.argument(a.ctor.node, 0, "dataset")
    second = sx.argument(b.ctor.node, 0, "dataset")
    if first is None or second is None:
        return False
    if sx.flat(first) == sx.flat(second) and a.ctor.frame.unit is b.ctor.frame.unit:
        return True
    mine = {
        o.ctor.node.id
        for o in ctx.flow.objects(Value(first, a.ctor.frame), budget=60)
        if o.ctor is not None
    }
    theirs = {
        o.ctor.node.id
        for o in ctx.flow.objects(Value(second, b.ctor.frame), budget=60)
        if o.ctor is not None
    }
    return bool(mine & theirs)
