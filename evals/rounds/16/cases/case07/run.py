import argparse
import tomllib

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from oliograde.model import CumulativeHead, cumulative_targets
from oliograde.panel import simulate_lots

N_GRADES = 4


def standardise(train, other):
    logged = lambda a: np.log(np.clip(a, 1e-3, None))
    tr, ot = logged(train), logged(other)
    mu, sd = tr.mean(0), tr.std(0) + 1e-6
    return (tr - mu) / sd, (ot - mu) / sd


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        pred = CumulativeHead.to_grade(model(x))
    return (pred == y).float().mean().item(), (pred - y).abs().float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="settings.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as fh:
        cfg = tomllib.load(fh)
    d, m, o = cfg["data"], cfg["model"], cfg["optim"]
    seed = args.seed if args.seed is not None else d["seed"]
    torch.manual_seed(seed)

    X, g = simulate_lots(d["n_lots"], seed)
    n_val = int(d["val_fraction"] * len(g))
    Xtr, Xva = standardise(X[n_val:], X[:n_val])
    xtr, ytr = torch.from_numpy(Xtr.astype(np.float32)), torch.from_numpy(g[n_val:])
    xva, yva = torch.from_numpy(Xva.astype(np.float32)), torch.from_numpy(g[:n_val])
    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=o["batch_size"], shuffle=True)

    model = CumulativeHead(X.shape[1], N_GRADES, m["hidden"], m["dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=o["lr"], weight_decay=o["weight_decay"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=o["decay_every"], gamma=o["decay_gamma"])

    for epoch in range(o["epochs"]):
        model.train()
        for xb, yb in loader:
            logits = model(xb)
            loss = F.binary_cross_entropy_with_logits(logits, cumulative_targets(yb, N_GRADES))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        if epoch % 6 == 5:
            acc, mae = evaluate(model, xva, yva)
            print(f"epoch {epoch + 1} lr {sched.get_last_lr()[0]:.2e} loss {loss.item():.4f} val_acc {acc:.3f}")

    acc, mae = evaluate(model, xva, yva)
    print(f"val_mae={mae:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
