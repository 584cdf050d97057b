"""Benchmark: build the code index of a synthetic 500-file repo and print the time.

    python evals/bench_index.py [--files 500] [--repeat 3]

The repo mixes model modules, training scripts and utilities of about 60-250 lines each
(about 75k lines in all), spread over nested packages, as a mid-sized research repo
would be. The target is under 2 s for 500 files on the development machine.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from torch_investigate.tools.code import CodeIndex

MODEL = '''"""Model module {i}."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block{i}(nn.Module):
    def __init__(self, d_in: int, d_out: int, p: float = 0.1) -> None:
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_out)
        self.fc2 = nn.Linear(d_out, d_out)
        self.norm = nn.LayerNorm(d_out)
        self.drop = nn.Dropout(p)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.gelu(self.fc1(x))
        h = self.drop(h)
        return self.norm(self.fc2(h) + h)


class Net{i}(nn.Module):
    def __init__(self, d: int = 32, depth: int = {depth}, classes: int = 10) -> None:
        super().__init__()
        self.embed = nn.Linear(d, d)
        self.blocks = nn.ModuleList([Block{i}(d, d) for _ in range(depth)])
        self.head = nn.Linear(d, classes)

    def forward(self, x):
        x = self.embed(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(dim=1) if x.dim() == 3 else x)
'''

EXTRA_METHOD = """
    def aux_{k}(self, x, scale: float = {k}.0):
        y = x * scale
        if y.abs().max() > 10:
            y = y / y.abs().max()
        return torch.tanh(y) + self.embed(x)
"""

TRAIN = '''"""Training script {i}."""
import argparse

import torch
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

from pkg{pkg}.model{i} import Net{i}


def make_loaders(n: int = 512, d: int = 32, batch_size: int = 32):
    x = torch.randn(n, d)
    y = torch.randint(0, 10, (n,))
    split = int(0.8 * n)
    train = TensorDataset(x[:split], y[:split])
    val = TensorDataset(x[split:], y[split:])
    return (
        DataLoader(train, batch_size=batch_size, shuffle=True),
        DataLoader(val, batch_size=batch_size),
    )


def train_one_epoch(model, loader, optimizer, criterion, clip: float = 1.0):
    model.train()
    total = 0.0
    for step, (xb, yb) in enumerate(loader):
        optimizer.zero_grad(set_to_none=True)
        logits = model(xb)
        loss = criterion(logits, yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total += loss.item()
    return total / max(1, len(loader))


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = seen = 0
    for xb, yb in loader:
        correct += (model(xb).argmax(dim=1) == yb).sum().item()
        seen += yb.numel()
    return correct / max(1, seen)
{extra}

def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()
    model = Net{i}()
    optimizer = optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    scheduler = optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)
    criterion = nn.CrossEntropyLoss()
    train_loader, val_loader = make_loaders()
    for epoch in range(args.epochs):
        loss = train_one_epoch(model, train_loader, optimizer, criterion)
        acc = evaluate(model, val_loader)
        scheduler.step()
        print(f"epoch {{epoch}} loss {{loss:.3f}} acc {{acc:.3f}}")


if __name__ == "__main__":
    main()
'''

EXTRA_FUNCTION = """

def helper_{k}(values, weight={k}):
    out = []
    for v in values:
        if v is None:
            continue
        out.append(v * weight)
    return sum(out) / max(1, len(out))
"""


def write_repo(root: Path, files: int) -> int:
    """Writes `files` modules under root; returns the number of lines written."""
    lines = 0
    for i in range(files):
        pkg = i % 12
        folder = root / f"pkg{pkg}"
        folder.mkdir(exist_ok=True)
        (folder / "__init__.py").touch()
        if i % 2 == 0:
            extra = "".join(EXTRA_METHOD.format(k=k) for k in range(i % 30))
            text = MODEL.format(i=i, depth=2 + i % 4) + extra
            path = folder / f"model{i}.py"
        else:
            extra = "".join(EXTRA_FUNCTION.format(k=k) for k in range(i % 30))
            text = TRAIN.format(i=i - 1, pkg=(i - 1) % 12, extra=extra)
            path = folder / f"train{i}.py"
        path.write_text(text)
        lines += text.count("\n")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        lines = write_repo(root, args.files)
        times, cpu = [], []
        for _ in range(args.repeat):
            started, started_cpu = time.perf_counter(), time.process_time()
            index = CodeIndex.build(root)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        # CPU time is the figure to compare across runs: wall time also counts whatever
        # else the machine is doing.
        print(
            f"CodeIndex.build: {len(index.files)} files, {lines} lines, "
            f"{len(index.symbols)} symbols: median {statistics.median(times):.2f} s wall, "
            f"{statistics.median(cpu):.2f} s CPU (wall min {min(times):.2f} s, "
            f"max {max(times):.2f} s over {args.repeat} runs)"
        )


if __name__ == "__main__":
    main()
