"""A projection made afresh in every forward and kept as an attribute (`self.proj =
nn.Linear(...)` inside a helper the forward calls): registered while it runs, never in
the optimizer. That is one defect, params_created_in_forward; its absence from the
optimizer follows from it and is not a second finding. Made once in __init__, healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn


class LM(nn.Module):
    def __init__(self, vocab=12, dim=32):
        super().__init__()
        self.vocab, self.dim = vocab, dim
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        INIT

    def _head(self):
        HEAD
        return self.proj

    def forward(self, tokens):
        h, _ = self.rnn(self.embed(tokens))
        return self._head()(h)


torch.manual_seed(0)
seq = torch.arange(4000) % 12
x = torch.stack([seq[i:i + 16] for i in range(0, 3000, 3)])
y = torch.stack([seq[i + 1:i + 17] for i in range(0, 3000, 3)])
model = LM()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    for i in torch.randperm(len(x)).split(50):
        logits = model(x[i])
        loss = nn.functional.cross_entropy(logits.reshape(-1, 12), y[i].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_a_layer_made_in_every_forward_is_one_defect(tmp_path):
    script = SCRIPT.replace("INIT", "pass").replace(
        "HEAD", "self.proj = nn.Linear(self.dim, self.vocab)"
    )
    report = planner_report(tmp_path, script)
    found = [f.category for f in report.findings if f.status == "confirmed"]
    assert found == ["params_created_in_forward"], report.findings


def test_the_layer_made_once_is_healthy(tmp_path):
    script = SCRIPT.replace("INIT", "self.proj = nn.Linear(dim, vocab)").replace("HEAD", "pass")
    report = planner_report(tmp_path, script)
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
