import argparse

import numpy as np
import torch
from torch.utils.data import DataLoader

from fieldyield.data import BagDataset, collate_bags, simulate_fields
from fieldyield.model import BagRegressor


def r2_score(pred, y):
    return 1 - ((pred - y) ** 2).sum() / ((y - y.mean()) ** 2).sum()


@torch.no_grad()
def predict(model, loader):
    model.eval()
    ps, ys = [], []
    for x, mask, y in loader:
        ps.append(model(x, mask))
        ys.append(y)
    return torch.cat(ps), torch.cat(ys)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    bags, y = simulate_fields(1200, rng)
    y_mean, y_std = y[:900].mean(), y[:900].std()
    y = (y - y_mean) / y_std
    train = BagDataset(bags[:900], y[:900])
    val = BagDataset(bags[900:], y[900:])
    tl = DataLoader(train, batch_size=args.batch_size, shuffle=True, collate_fn=collate_bags)
    vl = DataLoader(val, batch_size=64, collate_fn=collate_bags)

    model = BagRegressor(7)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        for x, mask, yt in tl:
            loss = torch.nn.functional.mse_loss(model(x, mask), yt)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            p, t = predict(model, vl)
            print(f"epoch {epoch + 1} train_mse {loss.item():.4f} val_r2 {r2_score(p, t):.4f}")

    p, t = predict(model, vl)
    print(f"val_r2={r2_score(p, t):.4f}")


if __name__ == "__main__":
    main()
