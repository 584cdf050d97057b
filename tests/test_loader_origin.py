"""Where an evaluation loader's inputs are prepared, followed through the helper that
returns the loaders: `train_dl, val_dl = make_loaders(...)` passes on what make_loaders
builds, so a validation dataset made there without the training statistics is placed in
make_loaders, not at the line in main that calls it. The two loaders are built on one line
(`return DataLoader(tr), DataLoader(va)`): each is its own loader (told apart by the
instruction that builds it), so the validation pass is no train-set score."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Rows(Dataset):
    def __init__(self, x, y, stats=None):
        if stats is not None:
            x = (x - stats[0]) / stats[1]
        self.x, self.y = torch.from_numpy(x).float(), torch.from_numpy(y).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def simulate(n, rng):
    y = rng.integers(0, 3, size=n)
    x = rng.normal(size=(n, 8)) + y[:, None] * np.linspace(0, 1, 8)
    return 50.0 + 20.0 * x, y


def make_loaders(seed):
    xtr, ytr = simulate(3000, np.random.default_rng(seed))
    xva, yva = simulate(600, np.random.default_rng(99))
    stats = (xtr.mean(0), xtr.std(0))
    train_ds = Rows(xtr, ytr, stats=stats)
    val_ds = Rows(xva, yva)
    return DataLoader(train_ds, batch_size=64, shuffle=True), DataLoader(val_ds, batch_size=200)


def evaluate(model, loader):
    model.eval()
    hits = n = 0
    with torch.no_grad():
        for x, y in loader:
            hits += (model(x).argmax(1) == y).sum().item()
            n += len(y)
    return hits / n


def main():
    torch.manual_seed(0)
    train_dl, val_dl = make_loaders(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(6):
        model.train()
        for x, y in train_dl:
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        print(f"epoch {epoch} val_acc {evaluate(model, val_dl):.3f}")


if __name__ == "__main__":
    main()
"""


def test_a_validation_set_made_without_stats_in_a_loader_helper_is_placed_there(tmp_path):
    report = planner_report(tmp_path, SCRIPT)
    (f,) = [f for f in report.findings if f.status == "confirmed"]
    assert f.category == "preprocessing_mismatch"
    assert f.symbol == "make_loaders"


def test_a_program_that_evaluates_once_after_a_loop_longer_than_the_budget_is_compared_there(
    tmp_path,
):
    """The only evaluation comes after the training loop, which runs past the traced step
    budget: the rerun with the evaluation inputs aligned goes the run's own way (traced to
    the budget, then fast-forwarded to the end), so it reaches that evaluation too."""
    once = SCRIPT.replace(
        '        print(f"epoch {epoch} val_acc {evaluate(model, val_dl):.3f}")\n', ""
    ).replace("    for epoch in range(6):", "    for epoch in range(8):").replace(
        '\n\nif __name__ == "__main__":',
        '\n    print(f"val_acc={evaluate(model, val_dl):.3f}")\n\n\nif __name__ == "__main__":',
    )
    assert once.count("evaluate(model, val_dl)") == 1
    report = planner_report(tmp_path, once)
    (f,) = [f for f in report.findings if f.status == "confirmed"]
    assert f.category == "preprocessing_mismatch"
