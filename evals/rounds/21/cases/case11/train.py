import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F
from strain import windows, WIN


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.BatchNorm1d(WIN), nn.Linear(WIN, 64), nn.ReLU(),
                                 nn.Dropout(0.2), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def auc(scores, y):
    order = torch.argsort(scores)
    ranks = torch.empty_like(scores)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    npos = y.sum()
    nneg = len(y) - npos
    return ((ranks[y == 1].sum() - npos * (npos + 1) / 2) / (npos * nneg)).item()


class ValidationHook:
    def __init__(self, model, x, y, every):
        self.model, self.x, self.y, self.every = model, x, y, every
        self.history = []

    def __call__(self, step):
        if step % self.every:
            return
        self.model.eval()
        with torch.no_grad():
            self.history.append(auc(self.model(self.x), self.y))
        self.model.train()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    xtr, ytr = map(torch.from_numpy, windows(3000, 1))
    xva, yva = map(torch.from_numpy, windows(1000, 2))
    model = Scorer()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    hook = ValidationHook(model, xva, yva, every=40)
    g = torch.Generator().manual_seed(a.seed)
    step = 0
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(xtr), generator=g)
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            loss = F.binary_cross_entropy_with_logits(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            hook(step)
            step += 1
        print(f"epoch {ep+1} loss {loss.item():.4f} val_auc {hook.history[-1]:.4f}")
    model.eval()
    with torch.no_grad():
        final = auc(model(xva), yva)
    print(f"val_auc={final:.4f}")


if __name__ == "__main__":
    main()
