"""A train-set score whose one evaluation batch holds more rows than the tracer
fingerprints (round 29 case04: `deviance(model(X[:n_tr]), ...)`, 4,800 rows, 4,096
fingerprinted) holds the training rows of its first rows only: it is still the training
set, not a held-out pass that leaks."""

from __future__ import annotations

from torch_investigate.agent.checks.data_holdout import _train_set_passes
from torch_investigate.tools.tracefile.records import EvalBatch


def _batch(holds: int, printed: int, rows: int, site: str = "train.py:52") -> EvalBatch:
    return EvalBatch(
        site=site,
        rows=printed,
        overlap=holds,
        step=38,
        module_train_rows=3200,
        holds_train_rows=holds,
        batch_rows=rows,
        fingerprinted=printed,
    )


def test_a_truncated_pass_over_the_training_rows_scores_the_training_set():
    assert _train_set_passes([_batch(2724, 4096, 4800)]) == {("train.py:52", 38)}


def test_a_pass_holding_part_of_the_training_rows_is_held_out():
    assert _train_set_passes([_batch(2000, 4096, 4800)]) == set()
    assert _train_set_passes([_batch(2724, 4096, 4096)]) == set()  # every row printed


def test_records_without_the_batch_size_read_as_fully_fingerprinted():
    old = EvalBatch(site="a:1", rows=3000, step=1, module_train_rows=3200, holds_train_rows=2950)
    assert _train_set_passes([old]) == {("a:1", 1)}
