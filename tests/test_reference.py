"""The seed tutorial's numbers, computed by tools.reference, pinned exactly."""

import ast
import math
import sys
from pathlib import Path

import pytest
import torch

from torch_investigate.tools import reference
from torch_investigate.tools.reference import (
    accumulated_grad,
    bce_at_zero_logit,
    broadcast_mse,
    ce_equal_logits,
    confusion_counts,
    confusion_metrics,
    prior_cross_entropy,
    sgd_quadratic,
)

LN2 = math.log(2)


@pytest.mark.parametrize("target", [0.0, 1.0])
def test_bce_at_zero_logit_is_ln2_for_either_class(target):
    assert bce_at_zero_logit(target) == pytest.approx(0.693147, abs=1e-6)
    assert bce_at_zero_logit(target) == pytest.approx(LN2, abs=1e-12)


@pytest.mark.parametrize("classes", [2, 3, 4, 10])
def test_ce_equal_logits_is_ln_c(classes):
    assert ce_equal_logits(classes) == pytest.approx(math.log(classes), abs=1e-12)


def test_ce_two_equal_logits_matches_bce_at_zero():
    assert ce_equal_logits(2) == pytest.approx(0.693147, abs=1e-6)
    assert ce_equal_logits(2) == pytest.approx(bce_at_zero_logit(), abs=1e-12)


def test_ce_rejects_zero_classes():
    with pytest.raises(ValueError):
        ce_equal_logits(0)


def test_prior_cross_entropy_is_label_entropy():
    assert prior_cross_entropy([50, 50]) == pytest.approx(LN2, abs=1e-12)
    assert prior_cross_entropy([5, 5, 5, 5]) == pytest.approx(ce_equal_logits(4), abs=1e-12)
    assert prior_cross_entropy([90, 10]) == pytest.approx(0.325083, abs=1e-6)
    assert prior_cross_entropy([7, 0, 0]) == 0.0
    assert prior_cross_entropy([3, 0, 1]) == pytest.approx(prior_cross_entropy([3, 1]), abs=1e-12)


@pytest.mark.parametrize("bad", [[], [0, 0], [1, -1]])
def test_prior_cross_entropy_rejects_bad_counts(bad):
    with pytest.raises(ValueError):
        prior_cross_entropy(bad)


def test_broadcast_trap_is_three_by_three_with_mse_four_thirds():
    result = broadcast_mse([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert result.diff_shape == (3, 3)
    assert result.diff == [[0.0, -1.0, -2.0], [1.0, 0.0, -1.0], [2.0, 1.0, 0.0]]
    assert result.broadcast == pytest.approx(4 / 3, abs=1e-12)
    assert result.intended == 0.0


def test_broadcast_default_arguments_are_the_seed_example():
    assert broadcast_mse() == broadcast_mse([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])


def test_broadcast_matches_torch_mse_loss_on_the_wrong_shapes():
    pred = torch.tensor([[1.0], [2.0], [3.0]])
    target = torch.tensor([1.0, 2.0, 3.0])
    with pytest.warns(UserWarning):  # torch warns that the shapes broadcast
        wrong = torch.nn.functional.mse_loss(pred, target)
    assert wrong.item() == pytest.approx(broadcast_mse(pred, target).broadcast, abs=1e-6)


def test_broadcast_rejects_length_mismatch():
    with pytest.raises(ValueError):
        broadcast_mse([1.0, 2.0], [1.0, 2.0, 3.0])


def test_gradient_accumulates_two_then_four():
    assert accumulated_grad(1.0, 1) == 2.0
    assert accumulated_grad(1.0, 2) == 4.0
    assert accumulated_grad() == 4.0
    assert accumulated_grad(3.0, 5) == pytest.approx(5 * 2 * 3.0)
    assert accumulated_grad(1.0, 0) == 0.0


def test_sgd_quadratic_lr_half_halves_w():
    run = sgd_quadratic(w=1.0, lr=0.5, steps=4)
    assert run.weights == pytest.approx([1.0, 0.5, 0.25, 0.125, 0.0625], abs=1e-12)
    assert run.factor == 0.5
    assert run.loss_ratio == pytest.approx(0.25)
    assert not run.diverges


def test_sgd_quadratic_lr_2_2_flips_sign_and_grows_by_1_2():
    run = sgd_quadratic(w=1.0, lr=2.2, steps=4)
    assert run.weights == pytest.approx([1.0, -1.2, 1.44, -1.728, 2.0736], abs=1e-9)
    for before, after in zip(run.losses, run.losses[1:], strict=False):
        assert after / before == pytest.approx(1.44, abs=1e-9)
    assert run.factor == pytest.approx(-1.2)
    assert run.loss_ratio == pytest.approx(1.44)
    assert run.diverges


@pytest.mark.parametrize("w,lr", [(1.0, 0.1), (-3.0, 0.5), (2.0, 1.9), (0.5, 2.2)])
def test_sgd_quadratic_matches_closed_form(w, lr):
    run = sgd_quadratic(w=w, lr=lr, steps=6)
    assert run.weights == pytest.approx([w * (1 - lr) ** k for k in range(7)], rel=1e-12)
    assert run.losses == pytest.approx([0.5 * v * v for v in run.weights], rel=1e-12)


def test_confusion_metrics_seed_exercise():
    m = confusion_metrics(tn=60, fp=10, fn=20, tp=30)
    assert (m.accuracy, m.precision, m.recall) == pytest.approx((0.75, 0.75, 0.6))


def test_confusion_metrics_zero_denominators_are_zero():
    nothing_predicted_positive = confusion_metrics(tn=50, fp=0, fn=50, tp=0)
    assert nothing_predicted_positive.precision == 0.0
    assert nothing_predicted_positive.recall == 0.0
    assert nothing_predicted_positive.accuracy == 0.5
    no_actual_positive = confusion_metrics(tn=0, fp=5, fn=0, tp=0)
    assert no_actual_positive.recall == 0.0
    empty = confusion_metrics(0, 0, 0, 0)
    assert (empty.accuracy, empty.precision, empty.recall) == (0.0, 0.0, 0.0)


def test_confusion_metrics_rejects_negative_counts():
    with pytest.raises(ValueError):
        confusion_metrics(-1, 0, 0, 0)


def test_confusion_counts_threshold_is_logit_zero():
    logits = torch.tensor([[-2.0], [0.0], [1.5], [-0.1], [3.0]])
    targets = torch.tensor([[0.0], [0.0], [1.0], [1.0], [1.0]])
    m = confusion_counts(logits, targets)
    # logit 0 counts as predicted positive (sigmoid(0) = 0.5 >= 0.5)
    assert (m.tn, m.fp, m.fn, m.tp) == (1, 1, 1, 2)
    assert m.accuracy == pytest.approx(3 / 5)
    assert m.precision == pytest.approx(2 / 3)
    assert m.recall == pytest.approx(2 / 3)


def test_confusion_counts_other_threshold():
    logits = torch.tensor([0.0, 1.0, 2.0])
    targets = torch.tensor([1.0, 1.0, 1.0])
    m = confusion_counts(logits, targets, threshold=0.8)  # logit(0.8) ≈ 1.386
    assert (m.tp, m.fn) == (1, 2)


def test_reference_imports_only_stdlib_and_torch():
    """The tracer may import this module inside the sandboxed process."""
    tree = ast.parse(Path(reference.__file__).read_text())
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            roots.add((node.module or "").split(".")[0])
    assert roots - set(sys.stdlib_module_names) == {"torch"}


# ---- the checks' torch-free closed forms agree with torch ------------------------------
# The investigator's process does not import torch (2-3 s); its checks write the chance
# and marginal levels as closed forms. These tests hold them to the values torch computes.


@pytest.mark.parametrize("classes", [2, 3, 10, 1000])
def test_chance_level_is_what_torch_computes_for_equal_logits(classes):
    from torch_investigate.agent.checks.levels import element_chance

    assert element_chance("cross_entropy", [8, classes]) == pytest.approx(ce_equal_logits(classes))
    assert element_chance("binary_cross_entropy_with_logits", [8, 1]) == pytest.approx(
        bce_at_zero_logit()
    )


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_a_summed_loss_is_held_to_a_summed_chance_level(reduction):
    """reduction='sum' adds up the batch's losses: its uninformed value is the per-element
    level times the elements that count (the ignored ones left out), as torch computes it."""
    from types import SimpleNamespace

    from torch_investigate.agent.checks.levels import chance_level

    targets = torch.tensor([0, 1, 2, 1, -100, 0, 2, 1])
    logits = torch.zeros(8, 3)
    value = torch.nn.functional.cross_entropy(logits, targets, reduction=reduction).item()
    call = SimpleNamespace(fn="cross_entropy", input=SimpleNamespace(shape=[8, 3]),
                           reduction=reduction, total_elements=8, contributing_elements=7)  # fmt: skip
    assert chance_level(call) == pytest.approx(value)
    assert (chance_level(call) > 3) == (reduction == "sum")  # 7 ln 3, not ln 3


def _call(fn: str, values: dict[str, int], ignore_index=None):
    from types import SimpleNamespace

    target = SimpleNamespace(values=values, requires_grad=False, mean=None, std=None)
    return SimpleNamespace(
        fn=fn,
        ignore_index=ignore_index,
        input=SimpleNamespace(requires_grad=True),
        target=target,
    )


@pytest.mark.parametrize("counts", [[90, 10], [25, 25, 25, 25], [7, 0, 3, 40]])
def test_marginal_level_is_the_prior_cross_entropy(counts):
    """What predicting the class frequencies alone reaches, split over several calls and
    with the ignored index left out."""
    from torch_investigate.agent.checks.levels import marginal_level

    half = [{str(k): c // 2 for k, c in enumerate(counts) if c}, {}]
    half[1] = {str(k): c - c // 2 for k, c in enumerate(counts) if c}
    calls = [_call("cross_entropy", {**h, "-100": 5}, ignore_index=-100) for h in half]
    assert marginal_level(calls) == pytest.approx(prior_cross_entropy(counts))
