"""A next-token model must not read the positions after the one it predicts: the targets
are the input moved one position, and the future probe changes only the later inputs
and looks at the earlier outputs. A tiny attention LM whose mask keeps every position is
a confirmed split_leakage placed at the attention's forward; with a causal mask it is
healthy. Targets masked with a negative id still count as the next tokens."""

from __future__ import annotations

from pathlib import Path

import torch
from conftest import planner_report

from torch_investigate.tools.trace.future import shift_axis

# the trace contract's next-token program: an attention mask that keeps every position
LEAKY = (Path(__file__).parent / "fixtures" / "trace" / "tiny_lm" / "train.py").read_text()
LEAK = "self.mask[:, :n, :n] < 0"
assert LEAK in LEAKY


def test_attention_that_sees_the_later_tokens_is_found(tmp_path):
    report = planner_report(tmp_path, LEAKY)
    f = report.finding(report.root_cause)
    assert f is not None and f.category == "split_leakage" and f.status == "confirmed"
    assert (f.file, f.symbol) == ("train.py", "Attention.forward")
    assert "outputs before position 7 move" in f.evidence[0].text


def test_a_causal_mask_is_healthy(tmp_path):
    report = planner_report(tmp_path, LEAKY.replace(LEAK, "self.mask[:, :n, :n] == 0"))
    assert not [f for f in report.findings if f.status == "confirmed"]


def test_masked_next_token_targets_still_count_as_shifted():
    """minGPT's adder masks the first half of each row's targets with -1."""
    x = torch.arange(1, 7).repeat(16, 1)
    y = torch.cat([torch.full((16, 3), -1), x[:, 4:], torch.full((16, 1), 9)], dim=1)
    assert shift_axis(x, y) == 1
    assert shift_axis(x[:8], y[:8]) is None  # 16 positions compared: too few to rule out chance
    one = torch.tensor([[1, 2, 3, 4, 5, 6]])
    assert shift_axis(one, torch.tensor([[2, 3, 4, 5, 6, 7]])) == 1
    assert shift_axis(one, torch.tensor([[2, 3, 9, 5, 6, 7]])) is None


def test_positions_mixed_by_a_scramble_make_the_scramble_the_root_cause(tmp_path):
    # pytorch-tutorial's LM with its transpose-then-reshape seeded (evals/real): a forward
    # that stitches batch rows and positions together makes earlier outputs move with
    # later inputs too; the future reading follows from the scramble (tools/taxonomy.json
    # `causes`), which is the root cause
    scrambled = LEAKY.replace(LEAK, "self.mask[:, :n, :n] == 0").replace(
        "        h = h + self.attn(h)\n",
        "        h = h + self.attn(h)\n        h = h.transpose(0, 1).reshape(h.shape)\n",
    )
    report = planner_report(tmp_path, scrambled)
    f = report.finding(report.root_cause)
    leak = [x for x in report.findings if x.category == "split_leakage"]
    # the probe sees it too, and says what carries the later inputs back: no confirmed
    # leakage of its own beside the scramble
    assert leak and all(x.status == "plausible" for x in leak), report.findings
    assert "moves the batch's positions inside the forward" in leak[0].evidence[0].text
    assert f is not None and f.category in ("reshape_scramble", "wrong_dimension"), report.findings


# minGPT's attention with its softmax over the queries (evals/real): the causal mask is
# there, but weights normalized across the queries let later positions in
QUERY_SOFTMAX = LEAKY.replace(LEAK, "self.mask[:, :n, :n] == 0").replace(
    "F.softmax(att, dim=-1) @ v", "F.softmax(att, dim=-2) @ v"
)


def test_a_softmax_over_the_queries_is_the_dimension_defect_the_future_reading_follows(tmp_path):
    report = planner_report(tmp_path, QUERY_SOFTMAX)
    f = report.finding(report.root_cause)
    assert f is not None and f.category == "wrong_dimension" and f.status == "confirmed"
    assert (f.file, f.symbol) == ("train.py", "Attention.forward")
    assert "sums over its last axis" in f.evidence[0].text
    assert not [
        x for x in report.findings if x.category == "split_leakage" and x.status == "confirmed"
    ]


def test_a_scramble_of_positions_can_cause_a_future_reading():
    # in pytorch-tutorial's LM both were confirmed and the earlier stage won: the root
    # choice demotes a finding another confirmed one can cause
    from torch_investigate.agent.core.conclude import consequence_of

    assert {"reshape_scramble", "wrong_dimension"} <= consequence_of("split_leakage")
