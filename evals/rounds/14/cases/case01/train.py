import argparse
import time
import tomllib

import torch
import torch.nn as nn

from losses import weighted_bce
from thermal import simulate


class CellNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool2d(1),
            nn.Flatten(), nn.Linear(32, 1),
        )

    def forward(self, x):
        return self.body(x).squeeze(1)


def f1_score(pred, y):
    tp = ((pred == 1) & (y == 1)).sum().item()
    fp = ((pred == 1) & (y == 0)).sum().item()
    fn = ((pred == 0) & (y == 1)).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1)


def train_epoch(model, opt, x, y, batch_size, pos_weight):
    model.train()
    perm = torch.randperm(len(y))
    total = 0.0
    for i in range(0, len(y), batch_size):
        idx = perm[i : i + batch_size]
        xb, yb = x[idx], y[idx]
        logits = model(xb)
        loss = weighted_bce(yb, logits, pos_weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    return total / len(y)


@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    pred = (torch.sigmoid(model(x)) > 0.5).long()
    return f1_score(pred, y.long())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-c", "--config", default="pv.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    tc, dc = cfg["train"], cfg["data"]
    seed = tc["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    t0 = time.time()

    xtr, ytr = simulate(dc["n_train"], dc["defect_rate"], seed=1)
    xva, yva = simulate(dc["n_val"], dc["defect_rate"], seed=2)

    model = CellNet()
    opt = torch.optim.Adam(model.parameters(), lr=tc["lr"])
    for epoch in range(tc["epochs"]):
        loss = train_epoch(model, opt, xtr, ytr, tc["batch_size"], tc["pos_weight"])
        f1 = evaluate(model, xva, yva)
        print(f"epoch {epoch} loss {loss:.4f} val_f1 {f1:.4f}")
    print(f"took {time.time() - t0:.1f}s")
    print(f"val_f1={f1:.4f}")


if __name__ == "__main__":
    main()
