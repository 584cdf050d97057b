"""A training loss below the targets' level says the model learns something; it does not
say its argmax already beats the majority class. The evaluation's accuracy at the
majority share is then no evidence that the evaluation rows relate to their targets
otherwise than the training rows: the training batches' own accuracy, each counted
before the model trained on it, must clearly beat the majority first."""

from __future__ import annotations

from torch_investigate.agent.checks.eval_transfer import _fresh_accuracy_learns
from torch_investigate.tools.tracefile.records import LoaderInfo
from torch_investigate.tools.tracefile.trace import Trace


def _trace(right: int) -> Trace:
    loader = LoaderInfo(site="train.py:9", batch_size=100, dataset_len=4000, role="train")
    return Trace(
        format_version=1,
        status="completed",
        loaders=[loader],
        train_correct=[(step, right, 100) for step in range(40)],
    )


def test_training_batches_at_the_majority_share_do_not_learn():
    assert not _fresh_accuracy_learns(_trace(right=37), majority=0.36)


def test_training_batches_well_above_the_majority_share_learn():
    assert _fresh_accuracy_learns(_trace(right=70), majority=0.36)


def test_a_run_that_does_not_tell_is_not_held_against_the_evaluation():
    assert _fresh_accuracy_learns(Trace(format_version=1, status="completed"), majority=0.36)
