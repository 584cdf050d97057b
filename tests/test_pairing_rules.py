"""The permutation test's decisions on its own numbers: real pairs are "no better" than
shuffled ones only by a small difference that the unseen loss's wandering could hide,
never by a large one that a widely swinging fit would excuse."""

from __future__ import annotations

from torch_investigate.agent.checks.data_pairing import Transfer, no_better


def _fit(gain: float, noise: float) -> Transfer:
    return Transfer(lr=1e-2, fit=0.4, gain=gain, first=1.16, best=1.16 * (1 - gain),
                    steps=120, last_train=0.6, noise=noise)  # fmt: skip


def test_a_clear_gap_is_not_no_better_however_much_the_fit_swings():
    # a bag of embeddings overfitting its pool: 11.8% with real pairs, 0.007% shuffled,
    # each unseen loss wandering by 3%: the gap is no proof of misaligned pairs
    assert not no_better(_fit(0.118, 0.03), _fit(0.00007, 0.03))


def test_a_small_gap_within_the_noise_is_no_better():
    assert no_better(_fit(0.012, 0.004), _fit(0.0, 0.004))


def test_a_gap_beyond_a_quiet_unseen_loss_is_not_no_better():
    # small in itself, but the unseen loss hardly moves: the real pairs do carry more
    assert not no_better(_fit(0.02, 0.001), _fit(0.0, 0.001))
