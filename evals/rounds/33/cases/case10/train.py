import argparse

import numpy as np
import torch

from gnn import QueueGNN


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="prepared/snapshots.npz")
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    d = np.load(a.data)
    xtr, ytr, xva, yva = (torch.from_numpy(d[k]) for k in ("xtr", "ytr", "xva", "yva"))
    model = QueueGNN()
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    for ep in range(a.epochs):
        perm = torch.randperm(len(xtr))
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            loss = torch.nn.functional.mse_loss(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 5 == 4:
            with torch.no_grad():
                mae = (model(xva) - yva).abs().mean().item()
            print(f"epoch {ep + 1} train_mse={loss.item():.4f} val_mae_min={mae:.4f}")
    with torch.no_grad():
        mae = (model(xva) - yva).abs().mean().item()
    print(f"val_mae_min={mae:.4f}")


if __name__ == "__main__":
    main()
