"""A program's own batch sampler orders the rows (the DataLoader's `sampler` is then the
default SequentialSampler, which says nothing): batches cut from rows stored class by
class are found in class order, beyond what the class frequencies give by chance, the
shuffled intervention keeps the sampler's batch sizes, and the finding is placed at the
sampler's method that yields the batches. The same sampler over a shuffled order is
healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = '''
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, Sampler

torch.manual_seed(0)
N, D, C = 960, 10, 3
centers = torch.randn(C, D) * 0.6
labels = torch.arange(N) % C
labels = labels[torch.argsort(labels, stable=True)]  # stored class by class
feats = centers[labels] + torch.randn(N, D)


class Rows(Dataset):
    def __len__(self):
        return N

    def __getitem__(self, i):
        return feats[i], labels[i]


class ChunkSampler(Sampler):
    """Batches of rows, in a fresh order each epoch."""

    def __init__(self, n, batch_size, seed=0):
        self.n, self.batch_size, self.seed, self.epoch = n, batch_size, seed, 0

    def _chunks(self):
        g = torch.Generator().manual_seed(self.seed + self.epoch)
        order = torch.randperm(self.n, generator=g).tolist()
        rows = list(range(self.n))
        for start in range(0, self.n, self.batch_size):
            yield ROWS[start:start + self.batch_size]
        self.epoch += 1

    def __iter__(self):
        return iter(list(self._chunks()))

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size


model = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, C))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loader = DataLoader(Rows(), batch_sampler=ChunkSampler(N, 32))
for epoch in range(3):
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    acc = (model(feats).argmax(1) == labels).float().mean()
print(f"acc={acc:.3f}")
'''


def test_batches_in_class_order_from_the_programs_sampler(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("ROWS[", "rows["))
    f = report.finding(report.root_cause)
    assert f is not None and f.category == "unshuffled_data" and f.status == "confirmed"
    assert (f.file, f.symbol) == ("train.py", "ChunkSampler._chunks")
    text = " ".join(e.text for e in f.evidence)
    assert "expected by chance" in text and "ChunkSampler" in text
    assert "with the training DataLoader shuffled: after" in text  # the sampler's sizes kept


def test_the_same_sampler_over_a_shuffled_order_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("ROWS[", "order["))
    assert not [f for f in report.findings if f.status == "confirmed"]
    items = {i.id: i for s in report.stages for i in s.checklist}
    assert items["class_balance"].outcome == "passed"


SORTED = """
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
N, D = 2560, 8
y = torch.cat([torch.zeros(N // 2), torch.ones(N // 2)])  # stored class by class
x = torch.randn(N, D) + 0.4 * (2 * y[:, None] - 1)
loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=SHUFFLE)
model = nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(2):
    for xb, yb in loader:
        loss = nn.functional.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    acc = ((model(x).squeeze(1) > 0).float() == y).float().mean()
print(f"acc={acc:.3f}")
"""


def test_classes_stored_in_order_beyond_the_recorded_batches(tmp_path):
    """Forty batches of one class, then forty of the other: the first recorded batches
    see one target value only, which is no constant labels (the whole run's loss calls
    see both classes later) but batches in class order."""
    report = planner_report(tmp_path, SORTED.replace("SHUFFLE", "False"))
    f = report.finding(report.root_cause)
    assert f is not None and f.category == "unshuffled_data" and f.status == "confirmed"
    assert not [g for g in report.findings if g.category == "bad_labels"]
    assert any("of the whole run hold a single class" in e.text for e in f.evidence)


def test_the_same_sorted_data_shuffled_by_its_loader_is_healthy(tmp_path):
    report = planner_report(tmp_path, SORTED.replace("SHUFFLE", "True"))
    assert not [f for f in report.findings if f.status == "confirmed"]
