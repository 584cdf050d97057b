"""A warm-up that freezes an encoder, then at its end unfreezes the head (never frozen)
instead of it: the encoder the optimizer holds stays frozen all training. The run shows
the intent (an unfreeze first run once the optimizer had stepped, that found every tensor
it reached already training) and the effect (trained, the program's own held-out loss is
far lower, beyond what reseeding moves it by) -> confirmed at the unfreeze call. Twins:
the warm-up that unfreezes the encoder; the same code around an encoder pretrained to the
task's own map and kept frozen on purpose (its parameters in the optimizer, or left out):
training it does not help held-out data."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
TASK = torch.Generator().manual_seed(0)
A = torch.randn(64, 16, generator=TASK) / 2  # the map a pretrained encoder learned
W = torch.randn(64, generator=TASK) / 4


def make(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    h = torch.tanh(x @ A.T)
    return x, h @ W + 0.3 * h[:, 0] * h[:, 1]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(16, 64, bias=False), nn.Tanh())
        self.head = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.head(self.encoder(x)).squeeze(-1)


def set_trainable(module, flag):
    for p in module.parameters():
        p.requires_grad_(flag)


def main():
    x_tr, y_tr = make(2000, 1)
    x_va, y_va = make(500, 2)
    model = Net()
    PRETRAINED
    OPTIMIZER
    set_trainable(model.encoder, False)
    for epoch in range(12):
        if epoch == 2:
            set_trainable(UNFROZEN, True)
        perm = torch.randperm(2000)
        for i in range(0, 2000, 50):
            idx = perm[i : i + 50]
            loss = F.mse_loss(model(x_tr[idx]), y_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            val = F.mse_loss(model(x_va), y_va).item()
        print(f"epoch {epoch} loss {loss.item():.4f} val_mse {val:.4f}")


main()
"""

EVERY = "opt = torch.optim.Adam(model.parameters(), lr=1e-2)"
PRETRAINED = "with torch.no_grad():\n        model.encoder[0].weight.copy_(A)"


def _script(
    *, unfrozen: str, pretrained: bool = False, optimizer: str = EVERY, attribute: bool = False
) -> str:
    script = SCRIPT
    if attribute:  # the attribute spelling of the same freeze and unfreeze
        script = script.replace("p.requires_grad_(flag)", "p.requires_grad = flag")
    return (
        script.replace("PRETRAINED", PRETRAINED if pretrained else "")
        .replace("OPTIMIZER", optimizer)
        .replace("UNFROZEN", unfrozen)
    )


def _confirmed(report):
    return [f for f in report.findings if f.status == "confirmed"]


def test_a_warm_up_that_unfreezes_the_wrong_part_is_confirmed_at_that_call(tmp_path):
    script = _script(unfrozen="model.head")
    report = planner_report(tmp_path, script)
    found = _confirmed(report)
    assert [f.category for f in found] == ["frozen_parameters"], report.findings
    line = script.splitlines().index("            set_trainable(model.head, True)") + 1
    assert (found[0].file, found[0].line, found[0].symbol) == ("train.py", line, "main")


def test_the_same_warm_up_written_with_the_requires_grad_attribute_is_confirmed(tmp_path):
    script = _script(unfrozen="model.head", attribute=True)
    assert "p.requires_grad = flag" in script
    report = planner_report(tmp_path, script)
    found = _confirmed(report)
    assert [f.category for f in found] == ["frozen_parameters"], report.findings
    line = script.splitlines().index("            set_trainable(model.head, True)") + 1
    assert (found[0].file, found[0].line) == ("train.py", line)


def test_a_pretrained_encoder_kept_frozen_beside_an_idle_unfreeze_is_no_defect(tmp_path):
    report = planner_report(tmp_path, _script(unfrozen="model.head", pretrained=True))
    assert not _confirmed(report), report.findings


@pytest.mark.slow
def test_a_warm_up_that_unfreezes_the_encoder_is_no_defect(tmp_path):
    report = planner_report(tmp_path, _script(unfrozen="model.encoder"))
    assert not _confirmed(report), report.findings


@pytest.mark.slow
def test_a_pretrained_encoder_left_out_of_the_optimizer_is_no_defect(tmp_path):
    only = "opt = torch.optim.Adam([p for p in model.head.parameters()], lr=1e-2)"
    report = planner_report(
        tmp_path, _script(unfrozen="model.head", pretrained=True, optimizer=only)
    )
    assert not _confirmed(report), report.findings
