import argparse
import random

import torch
import torch.nn.functional as F

from .batching import collate
from .crystals import make_cells
from .model import CrystalNet


def evaluate(model, cells, y_mu, y_sd):
    model.eval()
    with torch.no_grad():
        b = collate(cells)
        pred = model(b) * y_sd + y_mu
    return (pred - b["y"]).abs().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rnd = random.Random(args.seed)

    train = make_cells(1200, seed=args.seed)
    val = make_cells(300, seed=args.seed + 1)
    ys = torch.tensor([c["y"] for c in train])
    y_mu, y_sd = ys.mean(), ys.std()

    model = CrystalNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    print(f"{sum(p.numel() for p in model.parameters())} parameters")
    for epoch in range(args.epochs):
        model.train()
        rnd.shuffle(train)
        for i in range(0, len(train), args.batch_size):
            b = collate(train[i:i + args.batch_size])
            loss = F.mse_loss(model(b), (b["y"] - y_mu) / y_sd)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1} loss {loss.item():.4f} val_mae {evaluate(model, val, y_mu, y_sd):.4f}")
    print(f"val_mae={evaluate(model, val, y_mu, y_sd):.4f}")


if __name__ == "__main__":
    main()
