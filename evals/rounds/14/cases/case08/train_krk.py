import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from positions import sample


class OutcomeNet(nn.Module):
    def __init__(self, d_in=193, hidden=128, n_classes=3):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, x):
        # log-probabilities; paired with NLLLoss below
        return F.log_softmax(self.mlp(x), dim=-1)


def run_epoch(model, loader, opt, criterion, clip):
    model.train()
    total, n, max_norm_seen = 0.0, 0, 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=clip)
        max_norm_seen = max(max_norm_seen, norm.item())
        opt.step()
        total += loss.item() * len(yb)
        n += len(yb)
    return total / n, max_norm_seen


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    hits, n = 0, 0
    for xb, yb in loader:
        hits += (model(xb).argmax(dim=1) == yb).sum().item()
        n += len(yb)
    return hits / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--clip", type=float, default=50.0, help="safety net against rare spikes")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    t0 = time.time()

    xtr, ytr = sample(12000, seed=1)
    xva, yva = sample(3000, seed=2)
    train_dl = DataLoader(TensorDataset(xtr, ytr), batch_size=128, shuffle=True)
    val_dl = DataLoader(TensorDataset(xva, yva), batch_size=512)

    model = OutcomeNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.NLLLoss()
    for epoch in range(args.epochs):
        loss, peak = run_epoch(model, train_dl, opt, criterion, args.clip)
        acc = accuracy(model, val_dl)
        print(f"epoch {epoch:2d} nll {loss:.4f} max_grad_norm {peak:.2f} val_acc {acc:.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
