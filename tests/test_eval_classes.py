"""Predictions that are indices into the class axis a training loss reads are classes,
even when the evaluation's labels never take the class the model predicts (a model
trained, wrongly, on padding only predicts the padding class at every closing bracket):
that is the model's answer, not a metric comparing something other than classes. An
argmax over another axis (window positions) is still read as no class."""

from __future__ import annotations

import torch

from torch_investigate.tools.trace import eval_matches
from torch_investigate.tools.trace.config import Config
from torch_investigate.tools.trace.recorder import Recorder


def _compare(rec: Recorder, pred: torch.Tensor, labels: torch.Tensor) -> None:
    rec.last_output_eval = True
    eval_matches.after_op(rec, "eq", (pred, labels), pred == labels)


def _argmax(logits: torch.Tensor, dim: int) -> torch.Tensor:
    logits._ti_out = True
    pred = logits.argmax(dim)
    pred._ti_pred = True  # as the function mode marks what a prediction computes
    eval_matches.classes_of("argmax", (logits, dim), {}, pred)
    return pred


def test_the_padding_class_predicted_where_labels_never_take_it_is_a_class():
    rec = Recorder(Config())
    rec.class_axes.add(9)  # a training cross-entropy over 9 classes
    logits = torch.zeros(4, 6, 9)
    logits[..., 0] = 5.0  # the model predicts class 0 everywhere
    pred = _argmax(logits, -1)
    closing = torch.tensor([4, 6, 8]).repeat(8)
    flat = pred.flatten()
    eval_matches.classes_of("flatten", (pred,), {}, flat)
    picked = flat[:24]
    picked._ti_pred = True
    eval_matches.classes_of("__getitem__", (flat, slice(0, 24)), {}, picked)
    _compare(rec, picked, closing)
    assert rec.eval_matches and rec.eval_outside is None


def test_positions_of_another_axis_are_no_class():
    rec = Recorder(Config())
    rec.class_axes.add(3)  # the training loss reads 3 classes; the argmax runs over 20 steps
    scores = torch.zeros(12, 20)
    scores[:, 17] = 1.0
    pred = _argmax(scores, 1)
    _compare(rec, pred, torch.tensor([0, 1, 2] * 4))
    assert rec.eval_matches and rec.eval_outside is not None


def _soft_target_loss(rec: Recorder, logits: torch.Tensor, dim: int) -> None:
    logits._ti_out = True
    eval_matches.softmax_classes(rec, "log_softmax", (logits, dim), {})


def test_a_hand_written_soft_target_loss_names_the_class_axis():
    """`-(q * logits.log_softmax(-1)).sum(-1)` records no class axis at a loss call; the
    softmax over the model's output on the gradient's path does (round 23's wine lists:
    the model's wines no board's best wine is were read as no class)."""
    rec = Recorder(Config())
    rec.status = "running"
    _soft_target_loss(rec, torch.zeros(8, 12, requires_grad=True), -1)
    assert rec.class_axes == {12}
    pred = _argmax(torch.zeros(6, 12).index_fill_(1, torch.tensor([11]), 1.0), -1)
    _compare(rec, pred, torch.tensor([0, 1, 2] * 2))
    assert rec.eval_matches and rec.eval_outside is None


def test_a_softmax_off_the_gradient_path_names_no_class_axis():
    rec = Recorder(Config())
    rec.status = "running"
    _soft_target_loss(rec, torch.zeros(8, 12), -1)  # an evaluation's probabilities
    with torch.no_grad():
        _soft_target_loss(rec, torch.zeros(8, 12, requires_grad=True), -1)
    assert rec.class_axes == set()
