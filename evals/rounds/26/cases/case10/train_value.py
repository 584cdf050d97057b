import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from solver import EDGES, FULL, completed, symmetries, value

MARGINS = 9  # -4..+4


def all_positions():
    xs, ys, taken = [], [], []
    for mask in range(FULL + 1):
        xs.append([mask >> e & 1 for e in range(len(EDGES))])
        ys.append(value(mask) + 4)
        taken.append(completed(mask))
    return torch.tensor(xs, dtype=torch.float32), torch.tensor(ys), torch.tensor(taken)


class ValueNet(nn.Module):
    def __init__(self, hidden=256):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(len(EDGES) + 1, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, MARGINS))

    def forward(self, edges, n_taken):
        h = torch.cat([edges, n_taken.float().unsqueeze(1) / 4], dim=1)
        return F.log_softmax(self.net(h), dim=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--patience", type=int, default=15)
    args = ap.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)

    x, y, taken = all_positions()
    perm = torch.randperm(len(y))
    va, tr = perm[:800], perm[800:]
    sym = torch.tensor(symmetries())

    model = ValueNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    best, bad = 0.0, 0
    for epoch in range(args.epochs):
        model.train()
        order = tr[torch.randperm(len(tr))]
        for i in range(0, len(order), 128):
            b = order[i:i + 128]
            # a random board symmetry per batch; the value is invariant to it
            xb = x[b][:, sym[random.randrange(8)]]
            loss = F.nll_loss(model(xb, taken[b]), y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(x[va], taken[va]).argmax(1) == y[va]).float().mean().item()
        if acc > best + 1e-4:
            best, bad = acc, 0
        else:
            bad += 1
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1} nll={loss.item():.4f} val_acc={acc:.4f}")
        if bad >= args.patience:
            print(f"no improvement for {bad} epochs, stopping at {epoch + 1}")
            break
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
