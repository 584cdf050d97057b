import argparse
import json

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from kiosklogs import generate


class KioskDays(Dataset):
    def __init__(self, square, cont, tier, mean, std):
        self.square = torch.as_tensor(square, dtype=torch.long)
        self.cont = torch.as_tensor((cont - mean) / std, dtype=torch.float32)
        self.tier = torch.as_tensor(tier, dtype=torch.long)

    def __len__(self):
        return len(self.tier)

    def __getitem__(self, i):
        return self.square[i], self.cont[i], self.tier[i]


class TierNet(nn.Module):
    def __init__(self, n_squares, n_cont, square_dim, hidden, n_tiers=3):
        super().__init__()
        self.square_emb = nn.Embedding(n_squares, square_dim)
        self.mlp = nn.Sequential(
            nn.Linear(square_dim + n_cont, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_tiers),
        )

    def forward(self, square, cont):
        return self.mlp(torch.cat([self.square_emb(square), cont], dim=-1))


def accuracy(model, loader):
    model.eval()
    hits = n = 0
    with torch.no_grad():
        for sq, cont, y in loader:
            hits += (model(sq, cont).argmax(1) == y).sum().item()
            n += len(y)
    return hits / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    d = cfg["data"]
    square, cont, tier = generate(d["n_days"], d["n_squares"], seed=seed)
    rng = np.random.default_rng(seed)
    all_idx = np.arange(len(tier))
    val_idx = rng.choice(all_idx, int(d["val_fraction"] * len(tier)), replace=False)
    train_idx = np.setdiff1d(all_idx, val_idx)

    mean, std = cont[train_idx].mean(0), cont[train_idx].std(0) + 1e-6
    train_ds = KioskDays(square[train_idx], cont[train_idx], tier[train_idx], mean, std)
    val_ds = KioskDays(square[val_idx], cont[val_idx], tier[val_idx], mean, std)

    train_loader = DataLoader(train_ds, **cfg["loader"])
    val_loader = DataLoader(val_ds, batch_size=256)

    m = cfg["model"]
    model = TierNet(d["n_squares"], cont.shape[1], m["square_dim"], m["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["optim"]["lr"])
    crit = nn.CrossEntropyLoss()

    for epoch in range(cfg["optim"]["epochs"]):
        model.train()
        running = 0.0
        for sq, c, y in train_loader:
            opt.zero_grad()
            loss = crit(model(sq, c), y)
            loss.backward()
            opt.step()
            running += loss.item() * len(y)
        acc = accuracy(model, val_loader)
        print(f"epoch {epoch + 1:2d} loss={running / len(train_ds):.4f} val_acc={acc:.3f}")

    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
