import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from finds import simulate


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, p in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(p, alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--ema", type=float, default=0.99)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr = map(torch.from_numpy, simulate(3000, seed=args.seed))
    Xva, yva = map(torch.from_numpy, simulate(600, seed=args.seed + 1))
    mu, sd = Xtr.mean(0), Xtr.std(0)
    Xtr, Xva = (Xtr - mu) / sd, (Xva - mu) / sd
    y_mu = ytr.mean()

    model = nn.Sequential(nn.Linear(Xtr.shape[1], 64), nn.ReLU(), nn.Dropout(0.1),
                          nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    ema = copy.deepcopy(model).requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)

    history = []
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            j = perm[i:i + 64]
            loss = F.mse_loss(model(Xtr[j]).squeeze(1), ytr[j] - y_mu)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, args.ema)
            history.append(loss.item())
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1} mean_loss {sum(history[-47:]) / 47:.4f}")

    ema.eval()
    with torch.no_grad():
        log_pred = ema(Xva).squeeze(1) + y_mu
    rel = (10 ** (log_pred - yva) - 1).abs()
    r2 = 1 - ((log_pred - yva) ** 2).sum() / ((yva - yva.mean()) ** 2).sum()
    print(f"val_median_rel_err={rel.median().item():.4f}")
    print(f"val_r2_log={r2.item():.4f}")


if __name__ == "__main__":
    main()
