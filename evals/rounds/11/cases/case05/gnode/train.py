import argparse
import copy

import numpy as np
import torch
import torch.nn.functional as F

from .graph import make_task
from .model import NodeRegressor


def r2(pred, y):
    return 1 - ((pred - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()


def main():
    ap = argparse.ArgumentParser(prog="python -m gnode.train")
    ap.add_argument("--epochs", type=int, default=400)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--smooth-weight", type=float, default=0.05)
    ap.add_argument("--ema-decay", type=float, default=0.98)
    ap.add_argument("--max-norm", type=float, default=50.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x, P, y = make_task()
    x = (x - x.mean(0)) / x.std(0)
    x, P, y = torch.from_numpy(x), torch.from_numpy(P), torch.from_numpy(y)
    y = y.unsqueeze(1)                                        # (N, 1) like the model output
    n = len(y)
    perm = torch.from_numpy(np.random.default_rng(args.seed).permutation(n))
    train_idx, val_idx = perm[: int(0.6 * n)], perm[int(0.6 * n):]
    print(f"nodes {n}, edges {int((P > 0).sum().item() - n) // 2}, train {len(train_idx)}, val {len(val_idx)}")

    model = NodeRegressor(x.shape[1])
    ema = copy.deepcopy(model).requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-4)

    for epoch in range(args.epochs):
        model.train()
        pred = model(x, P)
        fit = F.mse_loss(pred[train_idx], y[train_idx])
        # graph smoothness prior: pull each prediction toward its neighbourhood
        # average, treated as a fixed target for this step
        target = (P @ pred).detach()
        smooth = F.mse_loss(pred, target)
        loss = fit + args.smooth_weight * smooth
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_norm)
        opt.step()
        with torch.no_grad():
            for pe, pm in zip(ema.parameters(), model.parameters()):
                pe.lerp_(pm, 1 - args.ema_decay)
        if epoch % 100 == 99:
            ema.eval()
            with torch.no_grad():
                v = r2(ema(x, P)[val_idx], y[val_idx])
            print(f"epoch {epoch + 1} fit={fit.item():.4f} smooth={smooth.item():.4f} grad_norm={gn.item():.2f} val_r2={v:.4f}")

    ema.eval()
    with torch.no_grad():
        v = r2(ema(x, P)[val_idx], y[val_idx])
    print(f"val_r2={v:.4f}")


if __name__ == "__main__":
    main()
