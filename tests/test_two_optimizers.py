"""A sequence tagger's training shapes (blind round 05's viterbi): two optimizers stepping
after one backward (a network and a separate matrix of transition scores), where a
zero_grad() of the first does not reset the second's gradients, which then accumulate
across steps; and one sentence per forward, whose first axis is positions, not samples."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(512, 6)
y = (x[:, 0] > 0).long()
net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
bias = nn.Parameter(torch.zeros(2))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
bias_opt = torch.optim.SGD([bias], lr=0.05)
for epoch in range(4):
    for i in range(0, 512, 32):
        loss = F.cross_entropy(net(x[i : i + 32]) + bias, y[i : i + 32])
        opt.zero_grad()
        RESET
        loss.backward()
        opt.step()
        bias_opt.step()
    print(f"epoch {epoch} loss={loss.item():.4f}")
"""


def report_of(tmp_path: Path, reset: str):
    return planner_report(tmp_path, SCRIPT.replace("RESET", reset))


def test_the_second_optimizer_left_unreset_accumulates_its_gradients(tmp_path):
    report = report_of(tmp_path, "pass")
    root = report.finding(report.root_cause)
    assert root is not None and root.category == "missing_zero_grad", report.findings
    assert "another optimizer's" in root.evidence[0].text


def test_a_sentence_per_forward_is_no_batch_whose_rows_must_be_independent(tmp_path):
    """A tagger called once per sentence: the first axis is positions, of as many sizes
    as there are sentence lengths, and a convolution relates them by design."""
    from torch_investigate.agent.checks.forward import varying_sample_axis
    from torch_investigate.tools.tracefile.trace import Forward, TensorSummary, Trace

    def fw(i: int, n: int) -> Forward:
        return Forward(
            index=i, model="Tagger", training=True, grad_enabled=True, phase="train",
            inputs=[TensorSummary(shape=[n], dtype="int64")],
        )  # fmt: skip

    sentences = Trace(
        format_version=1,
        status="completed",
        forwards=[fw(i, n) for i, n in enumerate([7, 12, 9, 7, 15])],
    )
    batches = Trace(
        format_version=1,
        status="completed",
        forwards=[fw(i, n) for i, n in enumerate([32, 32, 32, 20])],
    )
    assert varying_sample_axis(sentences, 0) == [7, 9, 12, 15]
    assert varying_sample_axis(batches, 0) == []  # a DataLoader's batches and a shorter last


TWINS = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(512, 6)
y = (x[:, 0] + x[:, 1] > 0).long()


def mlp():
    return nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))


net1, net2 = mlp(), mlp()
opt1 = torch.optim.SGD(net1.parameters(), lr=0.05, momentum=0.9)
opt2 = torch.optim.SGD(net2.parameters(), lr=0.05, momentum=0.9)
for epoch in range(4):
    for i in range(0, 512, 32):
        xb, yb = x[i : i + 32], y[i : i + 32]
        loss1 = F.cross_entropy(net1(xb), yb)
        opt1.zero_grad()
        loss1.backward()
        opt1.step()
        loss2 = F.cross_entropy(net2(xb), yb)
        SECOND_RESET
        loss2.backward()
        opt2.step()
print(f"loss={loss2.item():.4f}")
"""


def test_two_networks_built_alike_keep_their_own_gradients(tmp_path):
    # co-teaching (blind round 07): two Sequentials named their parameters alike, so the
    # second's left-over gradients could not be told from the first's
    report = planner_report(tmp_path, TWINS.replace("SECOND_RESET", "opt1.zero_grad()"))
    found = [f for f in report.findings if f.category == "missing_zero_grad"]
    assert found and found[0].status == "confirmed", report.findings
    assert report.finding(report.root_cause) is found[0]


PAIR = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(1024, 8)
y = (x[:, 0] - x[:, 1] > 0).float()
z = x[:, 2:4] * 2.0
encoder = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
judge = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 1))
enc_opt = torch.optim.Adam(encoder.parameters(), lr=2e-3)
judge_opt = torch.optim.SGD(judge.parameters(), lr=0.05, momentum=0.9)
for epoch in range(6):
    for i in range(0, 1024, 64):
        xb = x[i : i + 64]
        enc_loss = F.mse_loss(encoder(xb), z[i : i + 64])
        enc_opt.zero_grad()
        enc_loss.backward()
        enc_opt.step()
        judge_loss = F.binary_cross_entropy_with_logits(judge(xb).squeeze(1), y[i : i + 64])
        judge_opt.zero_grad()
        judge_loss.backward()
        torch.nn.utils.clip_grad_norm_(judge.parameters(), LIMIT)
        judge_opt.step()
    print(f"epoch {epoch} enc={enc_loss.item():.4f} judge={judge_loss.item():.4f}")
"""


def test_a_clip_on_the_second_optimizer_is_judged_by_that_optimizer_s_loss(tmp_path):
    """The first optimizer's loss falls whatever the second's clip does; the clip that
    shrinks every step of the second is confirmed from the second's own loss."""
    report = planner_report(tmp_path, PAIR.replace("LIMIT", "0.005"))
    root = report.finding(report.root_cause)
    assert root is not None and root.category == "tiny_grad_clip", report.findings
    assert root.status == "confirmed" and root.location.line == 23


def test_the_loss_of_one_optimizer_s_steps():
    from torch_investigate.tools.tracefile.trace import Trace

    t = Trace(
        format_version=1, status="completed", n_steps=6,
        step_losses=[1.0, 0.5, 0.9, 0.4, 0.8, 0.3], step_optimizers=[0, 1, 0, 1, 0, 1],
    )  # fmt: skip
    assert t.optimizer_curve(1) == [0.5, 0.4, 0.3]
    assert t.optimizer_curve(None) == t.raw_curve()
    one = Trace(format_version=1, status="completed", n_steps=2, step_losses=[1.0, 0.5],
                step_optimizers=[0, 0])  # fmt: skip
    assert one.optimizer_curve(0) == one.raw_curve()
