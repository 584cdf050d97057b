import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from gestures import N_USERS, make_split


class SwipeEncoder(nn.Module):
    def __init__(self, n_users, ch=32):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(5, ch, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(ch, ch, 5, padding=2), nn.ReLU())
        self.cls = nn.Linear(2 * ch, n_users)

    def forward(self, x):
        h = self.conv(x)
        return self.cls(torch.cat([h.mean(-1), h.amax(-1)], 1))


def accuracy(logits, target):
    pred = logits.argmax(dim=-1, keepdim=True)
    return (pred == target).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    Xtr, ytr = map(torch.from_numpy, make_split(150, seed=1))
    Xva, yva = map(torch.from_numpy, make_split(40, seed=2))
    mu, sd = Xtr.mean((0, 2), keepdim=True), Xtr.std((0, 2), keepdim=True)
    Xtr, Xva = (Xtr - mu) / sd, (Xva - mu) / sd

    model = SwipeEncoder(N_USERS)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            loss = F.cross_entropy(model(Xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            val_logits = model(Xva)
            val_loss = F.cross_entropy(val_logits, yva).item()
            acc = accuracy(val_logits, yva)
        print(f"epoch {epoch + 1} train_ce={loss.item():.4f} val_ce={val_loss:.4f} val_acc={acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
