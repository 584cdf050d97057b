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
