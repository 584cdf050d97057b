"""The per-sample independence probe on a pairwise output: a dual encoder scoring every
query against every document of the batch (in-batch negatives) returns [B, B]; rolling
the samples rolls its rows and its columns, and changing one sample moves only its own
pairs. That is no mixing of samples (a healthy retrieval repo got a confirmed
reshape_scramble); a forward that does mix them still fails."""

from __future__ import annotations

import torch

from torch_investigate.tools.trace.probes import _verdict


def _outputs(f, x):
    rolled = x.roll(1, dims=0)
    changed = x.clone()
    changed[0] = changed[0] + 1.0
    return [f(x)], [f(rolled)], [f(changed)]


def test_a_batch_by_batch_score_is_pairwise_not_mixed():
    torch.manual_seed(0)
    w = torch.randn(8, 4)
    x = torch.randn(6, 8)
    a, b, p = _outputs(lambda t: (t @ w) @ (t @ w).t(), x)
    v = _verdict(6, True, a, b, p)
    assert v["independent"] and v["pairwise"]


def test_a_forward_that_mixes_rows_still_fails():
    torch.manual_seed(0)
    x = torch.randn(6, 6)
    # a reshape across the batch: each output row is built from several samples
    a, b, p = _outputs(lambda t: t.t().reshape(6, 6) @ torch.ones(6, 6), x)
    v = _verdict(6, True, a, b, p)
    assert not v["independent"] and not v["pairwise"]
    # row-wise independent: unchanged
    a, b, p = _outputs(lambda t: t * 2.0, x)
    v = _verdict(6, True, a, b, p)
    assert v["independent"] and not v["pairwise"]
