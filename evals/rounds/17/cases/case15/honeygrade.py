import argparse
import copy
import json

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from labsheet import simulate

N_GRADES = 5


def preprocess(X, stats=None):
    X = X.copy()
    X[:, [1, 6]] = np.log(X[:, [1, 6]])                 # HMF and pollen are log-normal
    if stats is None:
        stats = (X.mean(0), X.std(0))
    return (X - stats[0]) / stats[1], stats


class GradeNet(nn.Module):
    def __init__(self, n_in, hidden, dropout):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(dropout),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, N_GRADES))

    def forward(self, x):
        return F.log_softmax(self.net(x), dim=1)


def neighbour_targets(idx, eps):
    """One-hot grade with `eps` spread evenly over the adjacent grades."""
    t = torch.zeros(len(idx), N_GRADES)
    t[torch.arange(len(idx)), idx] = 1.0
    for shift in (-1, 1):
        nb = idx + shift
        ok = (nb >= 0) & (nb < N_GRADES)
        t[torch.arange(len(idx))[ok], nb[ok]] += eps
    return t / t.sum(1, keepdim=True)


@torch.no_grad()
def ema_update(ema_model, model, decay):
    for pe, p in zip(ema_model.parameters(), model.parameters()):
        pe.mul_(decay).add_(p.detach(), alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="honey.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    X, grade = simulate(cfg["lots"], cfg["seed"])
    y = grade - 1                                          # grades 1..5 -> class 0..4
    nv = int(len(X) * cfg["val_fraction"])
    Xtr, stats = preprocess(X[nv:])
    Xva, _ = preprocess(X[:nv], stats)
    Xtr, Xva = torch.from_numpy(Xtr), torch.from_numpy(Xva)
    ytr, yva = torch.from_numpy(y[nv:]), torch.from_numpy(y[:nv])

    model = GradeNet(X.shape[1], cfg["hidden"], cfg["dropout"])
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    nll = nn.NLLLoss()

    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            logp = model(Xtr[idx])
            soft = neighbour_targets(ytr[idx], cfg["neighbour_smoothing"])
            loss = -(soft * logp).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, cfg["ema_decay"])
        if (epoch + 1) % 10 == 0:
            ema.eval()
            with torch.no_grad():
                v = nll(ema(Xva), yva).item()
            print(f"epoch {epoch + 1} train_loss={loss.item():.4f} val_nll={v:.4f}")

    ema.eval()
    with torch.no_grad():
        pred = ema(Xva).argmax(dim=1)
    print(f"val_within_one={((pred - yva).abs() <= 1).float().mean().item():.4f}")
    print(f"val_acc={(pred == yva).float().mean().item():.4f}")


if __name__ == "__main__":
    main()
