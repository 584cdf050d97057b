import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from coral import CoralHead, coral_loss, grade_to_levels, logits_to_grade

NUM_GRADES = 5


def make_essays(n, rng):
    quality = rng.normal(size=n)
    topic = rng.normal(size=n)
    feats = np.stack([
        quality * 1.0 + rng.normal(0, .5, n),           # length
        quality * 0.8 + topic * .3 + rng.normal(0, .5, n),  # type/token ratio
        -quality * 0.9 + rng.normal(0, .6, n),          # spelling errors
        -quality * 0.6 + rng.normal(0, .6, n),          # grammar errors
        quality * 0.5 + rng.normal(0, .8, n),           # paragraphs
        topic + rng.normal(0, .5, n),                   # topic score
        rng.normal(size=n),                             # noise features
        rng.normal(size=n),
        quality ** 2 * .3 + rng.normal(0, .7, n),
        quality * .4 - topic * .2 + rng.normal(0, .6, n),
    ], 1).astype(np.float32)
    cuts = np.array([-1.2, -0.4, 0.4, 1.2])
    grade = np.searchsorted(cuts, quality + rng.normal(0, .25, n))
    return feats, grade.astype(np.int64)


class Grader(nn.Module):
    def __init__(self, d_in, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.head = CoralHead(hidden, NUM_GRADES)

    def forward(self, x):
        return self.head(self.body(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    x, g = make_essays(2400, rng)
    mu, sd = x[:1800].mean(0), x[:1800].std(0)
    x = (x - mu) / sd
    tr = TensorDataset(torch.tensor(x[:1800]), torch.tensor(g[:1800]))
    xv, gv = torch.tensor(x[1800:]), torch.tensor(g[1800:])
    loader = DataLoader(tr, batch_size=64, shuffle=True)

    model = Grader(x.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-5)
    for epoch in range(args.epochs):
        model.train()
        for xb, gb in loader:
            loss = coral_loss(model(xb), grade_to_levels(gb, NUM_GRADES))
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 9:
            model.eval()
            with torch.no_grad():
                pred = logits_to_grade(model(xv))
            print(f"epoch {epoch + 1} loss {loss.item():.3f} "
                  f"val_mae {(pred - gv).abs().float().mean():.3f} "
                  f"val_acc {(pred == gv).float().mean():.3f}")

    model.eval()
    with torch.no_grad():
        pred = logits_to_grade(model(xv))
    print(f"val_acc={(pred == gv).float().mean():.4f}")
    print(f"val_mae={(pred - gv).abs().float().mean():.4f}")


if __name__ == "__main__":
    main()
