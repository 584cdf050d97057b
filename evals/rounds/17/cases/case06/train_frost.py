import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.optim.lr_scheduler import StepLR

from nights import simulate_nights


class FrostNet(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(4, width, 3, padding=1), nn.Tanh(),
                                  nn.Conv1d(width, width, 3, padding=1), nn.Tanh())
        self.head = nn.Linear(width * 2, 1)

    def forward(self, x):
        h = self.conv(x)
        return self.head(torch.cat([h[:, :, -1], h.mean(2)], 1)).squeeze(-1)


def train_one_epoch(model, opt, sched, X, y, batch_size, gen):
    model.train()
    perm = torch.randperm(len(X), generator=gen)
    total = 0.0
    for i in range(0, len(perm), batch_size):
        idx = perm[i:i + batch_size]
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(X[idx]), y[idx])
        loss.backward()
        opt.step()
        sched.step()
        total += loss.item() * len(idx)
    return total / len(X)


def accuracy(model, X, y):
    model.eval()
    with torch.no_grad():
        return ((model(X) > 0).float() == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nights", type=int, default=3000)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--decay-every", type=int, default=10, help="epochs between lr halvings")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, y = simulate_nights(args.nights, args.seed)
    X, y = torch.from_numpy(X), torch.from_numpy(y)
    nv = len(X) // 5
    Xtr, ytr, Xva, yva = X[nv:], y[nv:], X[:nv], y[:nv]
    print(f"frost rate train={ytr.mean():.3f} val={yva.mean():.3f}")

    model = FrostNet()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    sched = StepLR(opt, step_size=args.decay_every, gamma=0.5)
    gen = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        loss = train_one_epoch(model, opt, sched, Xtr, ytr, args.batch_size, gen)
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} loss={loss:.4f} lr={opt.param_groups[0]['lr']:.2e} "
                  f"val_acc={accuracy(model, Xva, yva):.4f}")
    print(f"val_acc={accuracy(model, Xva, yva):.4f}")


if __name__ == "__main__":
    main()
