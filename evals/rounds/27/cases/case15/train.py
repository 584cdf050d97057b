import argparse

import numpy as np
import torch

from model import PlantForceNet
from telemetry import simulate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr = simulate(2000, args.seed)
    Xva, yva = simulate(500, args.seed + 1000)
    ch_mu = Xtr.mean(axis=(0, 2), keepdims=True)
    ch_sd = Xtr.std(axis=(0, 2), keepdims=True)
    Xtr = torch.tensor((Xtr - ch_mu) / ch_sd)
    Xva = torch.tensor((Xva - ch_mu) / ch_sd)
    y_mu, y_sd = float(ytr.mean()), float(ytr.std())
    ytr = torch.tensor((ytr - y_mu) / y_sd)
    yva = torch.tensor(yva)

    model = PlantForceNet()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        losses = []
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            loss = torch.nn.functional.mse_loss(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        model.eval()
        with torch.no_grad():
            pred = model(Xva) * y_sd + y_mu
        r2 = 1 - ((pred - yva) ** 2).sum().item() / ((yva - yva.mean()) ** 2).sum().item()
        if epoch % 4 == 3:
            print(f"epoch {epoch + 1}  train_mse {np.mean(losses):.4f}  val_r2 {r2:.4f}")
    print(f"val_r2={r2:.4f}")


if __name__ == "__main__":
    main()
