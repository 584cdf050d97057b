"""An evaluation loss summed over each batch and divided by the number of batches
(`total / len(loader)`): the printed figure is the per-row average times the batch size.
The tracer records each evaluation call's value and its rows; the printed number equals
the wrong average to its digits and no right one -> metric_bug, placed at the division.
Divided by the rows (`len(loader.dataset)`) it is healthy. The same for the program's own
`==` count: `100. * correct / len(loader)` prints an accuracy no count of rows gives."""

from __future__ import annotations

from conftest import planner_report

from torch_investigate.agent.checks.metric_average import printed_numbers

SCRIPT = """import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
x = torch.randn(3000, 10)
y = (x[:, :3].sum(1) > 0).long()
train = DataLoader(TensorDataset(x[:2400], y[:2400]), batch_size=50, shuffle=True)
val = DataLoader(TensorDataset(x[2400:], y[2400:]), batch_size=60)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
def evaluate():
    model.eval()
    total = 0.0
    with torch.no_grad():
        for xb, yb in val:
            total += nn.functional.cross_entropy(model(xb), yb, reduction="sum").item()
    model.train()
    return total / DIVISOR
for epoch in range(5):
    for xb, yb in train:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} train {loss.item():.4f} val_loss {evaluate():.4f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol, f.line) for f in report.findings if f.status == "confirmed"]


def test_summed_batches_divided_by_their_number_are_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("DIVISOR", "len(val)"))
    assert _confirmed(report) == [("metric_bug", "evaluate", 18)]


def test_summed_batches_divided_by_the_rows_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("DIVISOR", "len(val.dataset)"))
    assert _confirmed(report) == []


ACCURACY = """import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
x = torch.randn(3000, 10)
y = (x[:, :3].sum(1) > 0).long()
train = DataLoader(TensorDataset(x[:2400], y[:2400]), batch_size=50, shuffle=True)
val = DataLoader(TensorDataset(x[2400:], y[2400:]), batch_size=600)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
def test():
    model.eval()
    test_loss, correct = 0.0, 0
    with torch.no_grad():
        for xb, yb in val:
            out = model(xb)
            test_loss += nn.functional.cross_entropy(out, yb, reduction="sum").item()
            correct += out.argmax(1).eq(yb).sum().item()
    test_loss /= len(val.dataset)
    print("val loss {:.4f}, accuracy {}/{} ({:.0f}%)".format(
        test_loss, correct, len(val.dataset), 100. * correct / DIVISOR))
    model.train()
for epoch in range(5):
    for xb, yb in train:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    test()
"""


def test_a_count_right_divided_by_the_batches_is_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, ACCURACY.replace("DIVISOR", "len(val)"))
    assert _confirmed(report) == [("metric_bug", "test", 21)]


def test_a_count_right_divided_by_the_rows_is_healthy(tmp_path):
    report = planner_report(tmp_path, ACCURACY.replace("DIVISOR", "len(val.dataset)"))
    assert _confirmed(report) == []


MEANS = """import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
x = torch.randn(3000, 10)
y = (x[:, :3].sum(1) > 0).long()
train = DataLoader(TensorDataset(x[:2400], y[:2400]), batch_size=50, shuffle=True)
val = DataLoader(TensorDataset(x[2400:], y[2400:]), batch_size=60)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
@torch.no_grad()
def accuracy():
    model.eval()
    acc = 0.0
    for xb, yb in val:
        acc += (model(xb).argmax(1) == yb).float().mean().item()
    model.train()
    return 100 * acc / DIVISOR
for epoch in range(5):
    for xb, yb in train:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} val_acc {accuracy():.4f}%")
"""


def test_batch_accuracies_added_up_and_divided_by_the_rows_are_a_metric_bug(tmp_path):
    """Round 27's case04 spelling: each batch's accuracy added up, divided by
    `len(loader.dataset)`: the figure is the accuracy over the batch size."""
    report = planner_report(tmp_path, MEANS.replace("DIVISOR", "len(val.dataset)"))
    assert [c for c, _, _ in _confirmed(report)] == ["metric_bug"]


def test_batch_accuracies_averaged_over_the_batches_are_healthy(tmp_path):
    report = planner_report(tmp_path, MEANS.replace("DIVISOR", "len(val)"))
    assert _confirmed(report) == []


def test_only_numbers_with_enough_digits_are_read():
    assert printed_numbers("epoch 3 loss 0.0008 acc 97.25 lr 1e-3 step12 x=1.5e-02") == [
        (97.25, 0.005)
    ]


def test_a_wrong_figure_printed_at_one_pass_of_several_is_a_coincidence():
    from torch_investigate.agent.checks.metric_average import _wrong_accuracy
    from torch_investigate.tools.tracefile.trace import Frame, Trace

    # three passes of 30 batches of 100 rows; only the last one's count divided by the
    # batches (100 * 237 / 30 = 790) is among the printed numbers: an iteration counter
    counts = {1: 9, 501: 20, 1001: 237}
    matches = [[s, m // 30 + (i < m % 30), 100] for s, m in counts.items() for i in range(30)]
    t = Trace(
        format_version=1,
        status="completed",
        eval_matches=matches,
        eval_shift_frame=Frame(file="train.py", line=9, function="evaluate"),
    )
    printed = printed_numbers("iter 780: loss 0.1234\niter 790: loss 0.1234\n")
    assert _wrong_accuracy(None, t, printed) is None


COUNTED = """import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
x = torch.randn(3000, 10)
y = (x[:, :3].sum(1) > 0).long()
train = DataLoader(TensorDataset(x[:2400], y[:2400]), batch_size=50, shuffle=True)
val = DataLoader(TensorDataset(x[2400:], y[2400:]), batch_size=100)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
@torch.no_grad()
def accuracy(loader):
    model.eval()
    correct, seen = 0, 0
    for batch in loader:
        xb, yb = batch
        correct += (model(xb).argmax(dim=1) == yb).sum().item()
        seen += len(COUNTED)
    model.train()
    return correct / max(seen, 1)
for epoch in range(3):
    for xb, yb in train:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.3f}")
print(f"val_acc={accuracy(val):.4f}")
"""


def test_a_count_right_over_the_batch_tuples_length_is_a_metric_bug(tmp_path):
    """Round 30's case04 spelling: `seen += len(batch)` counts the (x, y) tuple's two
    items per batch, so the printed accuracy is far above 1: placed where the divisor is
    counted."""
    report = planner_report(tmp_path, COUNTED.replace("COUNTED", "batch"))
    assert _confirmed(report) == [("metric_bug", "accuracy", 18)]


def test_a_count_right_over_the_rows_counted_per_batch_is_healthy(tmp_path):
    report = planner_report(tmp_path, COUNTED.replace("COUNTED", "yb"))
    assert _confirmed(report) == []


def test_a_quotient_above_one_needs_digits_enough_to_rule_out_chance():
    from torch_investigate.agent.checks.metric_average import _over_all_rows

    # 296 right divided by 6 to four decimals: no accident
    assert _over_all_rows(296, printed_numbers("val_acc=49.3333")) == (49.3333, 6)
    # a loss of 1.074 lands near 296 / 276 by chance: three digits rule nothing out
    assert _over_all_rows(296, printed_numbers("loss 1.074")) is None
    # 296 / 2 printed as an integer-like figure by something else is too coarse as well
    assert _over_all_rows(296, printed_numbers("step 148")) is None
