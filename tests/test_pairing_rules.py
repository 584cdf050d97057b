"""The permutation test's decisions on its own numbers: real pairs are "no better" than
shuffled ones only by a small difference that the unseen loss's wandering could hide,
never by a large one that a widely swinging fit would excuse."""

from __future__ import annotations

from torch_investigate.agent.checks.data_pairing import Transfer, _never_better, no_better
from torch_investigate.agent.checks.pairing_fresh import own_accuracy
from torch_investigate.tools.tracefile.eval_records import EvalValues
from torch_investigate.tools.tracefile.trace import Trace


def _fit(gain: float, noise: float, early: float | None = None) -> Transfer:
    early = gain if early is None else early
    return Transfer(lr=1e-2, fit=0.4, gain=gain, first=1.16, best=1.16 * (1 - gain),
                    steps=120, last_train=0.6, noise=noise, early=early,
                    lowest=1.16 * (1 - early))  # fmt: skip


def test_a_clear_gap_is_not_no_better_however_much_the_fit_swings():
    # a bag of embeddings overfitting its pool: 11.8% with real pairs, 0.007% shuffled,
    # each unseen loss wandering by 3%: the gap is no proof of misaligned pairs
    assert not no_better(_fit(0.118, 0.03), _fit(0.00007, 0.03))


def test_a_small_gap_within_the_noise_is_no_better():
    assert no_better(_fit(0.012, 0.004), _fit(0.0, 0.004))


def test_a_gap_beyond_a_quiet_unseen_loss_is_not_no_better():
    # small in itself, but the unseen loss hardly moves: the real pairs do carry more
    assert not no_better(_fit(0.02, 0.001), _fit(0.0, 0.001))


def test_both_fits_worse_is_never_better_only_when_the_real_pairs_never_lead():
    # ticket texts reordered by length, labels not: both unseen losses rise from their first value and
    # the real pairs' lowest point is no lower than the shuffled pairs' (1.8% vs 0.5%)
    assert _never_better(_fit(-0.22, 0.1, 0.018), _fit(-0.21, 0.14, 0.005), floor=1.16)
    # real pairs that dip well below the targets' marginal before overfitting do lead
    assert not _never_better(_fit(-0.2, 0.1, 0.5), _fit(-0.2, 0.1, 0.005), floor=1.16)
    # a dip of the real pairs below the marginal level is learning, whatever the gap
    assert not _never_better(_fit(-0.2, 0.1, 0.06), _fit(-0.2, 0.1, 0.03), floor=1.16)


def _accuracy_trace(matched: list[int], labels: list[tuple[float, int]]) -> Trace:
    n = sum(c for _, c in labels)
    rows = [(0, n // 6, n)] + [(10 * (i + 1), m, n) for i, m in enumerate(matched)]
    return Trace(
        format_version=1,
        status="completed",
        eval_matches=rows,
        eval_values=EvalValues(first_labels=labels),
    )


def test_own_accuracy_tells_a_model_at_chance_from_one_that_learns():
    labels = [(float(k), 250) for k in range(6)]
    at_chance = own_accuracy(_accuracy_trace([240, 260, 255], labels))
    assert at_chance is not None and at_chance.stays and not at_chance.learns
    learns = own_accuracy(_accuracy_trace([900, 1300, 1400], labels))
    assert learns is not None and learns.learns and not learns.stays


def test_own_accuracy_says_nothing_when_chance_is_nearly_perfect():
    # 99% of one label in 1,000 rows: three standard errors exceed a quarter of the room
    assert own_accuracy(_accuracy_trace([995], [(0.0, 990), (1.0, 10)])) is None
