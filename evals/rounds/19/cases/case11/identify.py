import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from gestures import make

N_USERS = 6


class GestureCNN(nn.Module):
    def __init__(self, n_users=N_USERS, ch=32):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(3, ch, 5, padding=2), nn.ReLU(),
            nn.Conv1d(ch, ch, 5, padding=2), nn.ReLU(),
        )
        self.fc = nn.Linear(ch * 2, n_users)

    def forward(self, x):
        h = self.conv(x)
        return self.fc(torch.cat([h.mean(-1), h.amax(-1)], 1))


@torch.no_grad()
def score(model, X, y):
    model.eval()
    probs = F.softmax(model(X), dim=1)
    conf, pred = probs.max(dim=1, keepdim=True)    # [N, 1] columns, handy for the calibration dump
    acc = (pred == y).float().mean().item()
    model.train()
    return acc, conf.mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    Xtr, ytr = make(300, N_USERS, seed=a.seed + 1)
    Xva, yva = make(80, N_USERS, seed=999)
    Xtr, ytr, Xva, yva = torch.from_numpy(Xtr), torch.from_numpy(ytr), torch.from_numpy(Xva), torch.from_numpy(yva)

    model = GestureCNN()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-3)
    for ep in range(a.epochs):
        perm = torch.randperm(len(Xtr))
        for s in range(0, len(Xtr), 64):
            j = perm[s:s + 64]
            loss = F.cross_entropy(model(Xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc, conf = score(model, Xva, yva)
        print(f"epoch {ep + 1} loss={loss.item():.3f} val_acc={acc:.3f} mean_conf={conf:.3f}")
    print(f"mean_conf={conf:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
