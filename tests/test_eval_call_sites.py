"""Evaluation read from the run: which call handed an evaluation a model left in train
mode, and evaluation rows that match training rows only because the data repeats itself."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

FRESH_MODEL_LEFT_IN_TRAIN = """import copy

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
X = torch.randn(640, 8)
Y = (X[:, :2].sum(1, keepdim=True) > 0).float()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x)


@torch.no_grad()
def evaluate(model, x, y):
    return ((model(x) > 0).float() == y).float().mean().item()


def main():
    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    best, best_state = -1.0, None
    for epoch in range(8):
        model.train()
        for i in range(0, 448, 32):
            loss = F.binary_cross_entropy_with_logits(model(X[i : i + 32]), Y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        acc = evaluate(model, X[448:512], Y[448:512])
        if acc > best:
            best, best_state = acc, copy.deepcopy(model.state_dict())
        print(f"epoch {epoch} val_acc {acc:.3f}")
    final = Net()
    final.load_state_dict(best_state)
    print(f"test_acc={evaluate(final, X[512:], Y[512:]):.3f}")


main()
"""

REPEATING_ROWS = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def draw(n):
    kind = torch.randint(0, 4, (n,))
    return F.one_hot(kind, 4).float(), (kind >= 2).long()


train_x, train_y = draw(512)
val_x, val_y = draw(128)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(6):
    model.train()
    for i in range(0, 512, 32):
        loss = F.cross_entropy(model(train_x[i : i + 32]), train_y[i : i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = (model(val_x).argmax(1) == val_y).float().mean().item()
    print(f"epoch {epoch} val_acc={acc:.3f}")
"""


def report_of(tmp_path: Path, text: str):
    return planner_report(tmp_path, text)


def test_an_evaluation_run_right_in_the_loop_is_placed_at_the_call_that_skipped_eval(tmp_path):
    """evaluate() runs after model.eval() in the loop and, at the end, on a freshly built
    model left in train mode: the function is right, the last call is the defect."""
    report = report_of(tmp_path, FRESH_MODEL_LEFT_IN_TRAIN)
    found = [f for f in report.findings if f.category == "train_mode_in_eval"]
    assert found and found[0].status == "confirmed", report.findings
    line = FRESH_MODEL_LEFT_IN_TRAIN.splitlines().index(
        '    print(f"test_acc={evaluate(final, X[512:], Y[512:]):.3f}")'
    )
    assert (found[0].file, found[0].line, found[0].symbol) == ("train.py", line + 1, "main")


def test_evaluation_rows_that_match_training_rows_because_the_data_repeats_are_no_leak(
    tmp_path,
):
    """Four possible one-hot rows: every validation row equals some training row, as any
    fresh draw would. One evaluation pass repeats its own rows, so the match is chance."""
    report = report_of(tmp_path, REPEATING_ROWS)
    assert not [f for f in report.findings if f.category == "split_leakage"], report.findings
    data = next(s for s in report.stages if s.stage == 2)
    leakage = next(i for i in data.checklist if i.id == "leakage")
    assert leakage.outcome == "passed" and "by chance" in leakage.detail, leakage.detail


EMA_COPY_LEFT_IN_TRAIN = FRESH_MODEL_LEFT_IN_TRAIN.replace(
    "    best, best_state = -1.0, None\n",
    "    best, best_state = -1.0, None\n    ema = copy.deepcopy(model)\n",
).replace(
    "        model.eval()\n        acc = evaluate(model, X[448:512], Y[448:512])\n",
    "        with torch.no_grad():\n"
    "            for e, p in zip(ema.parameters(), model.parameters()):\n"
    "                e.mul_(0.9).add_(0.1 * p)\n"
    "        model.eval()\n        acc = evaluate(ema, X[448:512], Y[448:512])\n",
)


def test_an_averaged_copy_evaluated_in_train_mode_is_placed_at_the_switch_of_the_other(
    tmp_path,
):
    """The loop switches the live model to eval mode and evaluates its averaged copy,
    which stays in train mode: the mistake is the switch that named the other model."""
    report = report_of(tmp_path, EMA_COPY_LEFT_IN_TRAIN)
    found = [f for f in report.findings if f.category == "train_mode_in_eval"]
    assert found and found[0].status == "confirmed", report.findings
    line = EMA_COPY_LEFT_IN_TRAIN.splitlines().index("        model.eval()")
    assert (found[0].file, found[0].line, found[0].symbol) == ("train.py", line + 1, "main")


HELPER_THAT_KEEPS_TRAIN_MODE = """from contextlib import contextmanager

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
X = torch.randn(640, 8)
Y = (X[:, :2].sum(1, keepdim=True) > 0).float()
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 1))


@contextmanager
def inference(net):
    before = net.training
    net.train(before)
    try:
        with torch.no_grad():
            yield net
    finally:
        net.train(before)


opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(6):
    model.train()
    for i in range(0, 512, 32):
        loss = F.binary_cross_entropy_with_logits(model(X[i : i + 32]), Y[i : i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with inference(model):
        acc = ((model(X[512:]) > 0).float() == Y[512:]).float().mean().item()
    print(f"epoch {epoch} val_acc={acc:.3f}")
"""


def test_an_evaluation_after_a_switch_to_train_mode_is_placed_at_that_switch(tmp_path):
    """The helper that should switch the model to eval mode switches it to train mode (no
    training step between that switch and the evaluation): that line is the defect, not
    the training loop's model.train() nor the evaluation's forward."""
    report = report_of(tmp_path, HELPER_THAT_KEEPS_TRAIN_MODE)
    found = [f for f in report.findings if f.category == "train_mode_in_eval"]
    assert found and found[0].status == "confirmed", report.findings
    line = HELPER_THAT_KEEPS_TRAIN_MODE.splitlines().index("    net.train(before)")
    assert (found[0].file, found[0].line, found[0].symbol) == ("train.py", line + 1, "inference")


SHARED_STEP = """import torch
from torch import nn

torch.manual_seed(0)
X = torch.randn(960, 8)
Y = (X[:, :2].sum(1) > 0).long()
XV = torch.randn(320, 8)
YV = (XV[:, :2].sum(1) > 0).long()
model = nn.Sequential(nn.Linear(8, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 2))


def run_epoch(model, X, Y, opt=None):
    right = 0
    for i in range(0, len(X), 32):
        with torch.set_grad_enabled(opt is not None):
            out = model(X[i:i + 32])
            loss = nn.functional.cross_entropy(out, Y[i:i + 32])
        if opt is not None:
            opt.zero_grad()
            loss.backward()
            opt.step()
        right += (out.argmax(1) == Y[i:i + 32]).sum().item()
    return right / len(X)


opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(5):
    model.train()
    run_epoch(model, X, Y, opt)
    acc = run_epoch(model, XV, YV)
    print(f"epoch {epoch} val_acc {acc:.3f}")
"""


def test_an_evaluation_through_the_training_step_is_placed_at_the_call_that_scores(tmp_path):
    """One function trains (given an optimizer) and scores (without one): the mode is the
    caller's to set, so the evaluation left in train mode is placed at its call."""
    report = planner_report(tmp_path, SHARED_STEP)
    (f,) = [f for f in report.findings if f.category == "train_mode_in_eval"]
    assert f.status == "confirmed"
    assert (f.symbol, f.line) == ("<module>", 30)
