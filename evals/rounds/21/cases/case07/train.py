import argparse
import numpy as np
import torch
import torch.nn as nn
from data import make_recordings, catalogue, annotation_sheet, CLASSES, N_BINS


class SpecNet(nn.Module):
    def __init__(self, n_bins, n_classes, width=96):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_bins, width), nn.GELU(),
            nn.Linear(width, width), nn.GELU(),
            nn.Linear(width, n_classes),
        )

    def forward(self, x):
        return self.net(x)


def load_split(n, seed):
    specs, labels, sessions = make_recordings(n, seed)
    specs, sessions = catalogue(specs, labels, sessions)
    labels = annotation_sheet(labels, sessions)
    return torch.from_numpy(specs), torch.from_numpy(labels).long()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    xtr, ytr = load_split(3000, 100 + args.seed)
    xva, yva = load_split(800, 999)
    mu, sd = xtr.mean(0), xtr.std(0) + 1e-6
    xtr, xva = (xtr - mu) / sd, (xva - mu) / sd

    model = SpecNet(N_BINS, len(CLASSES))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    lossf = nn.CrossEntropyLoss()
    g = torch.Generator().manual_seed(args.seed)
    for ep in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr), generator=g)
        tot = 0.0
        for i in range(0, len(xtr), args.batch):
            idx = perm[i:i + args.batch]
            loss = lossf(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            acc = (model(xva).argmax(1) == yva).float().mean().item()
        print(f"epoch {ep+1:2d} train_loss={tot/len(xtr):.4f} val_acc={acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
