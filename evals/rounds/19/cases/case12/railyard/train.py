import argparse
import random

import torch

from .model import DwellGNN
from .yard import make_dataset


def evaluate(model, graphs):
    model.eval()
    err = n = 0.0
    with torch.no_grad():
        for g in graphs:
            pred = model(g["x"], g["edge_index"])
            err += (pred - g["y"]).abs().sum().item()
            n += g["y"].numel()
    model.train()
    return err / n


def main():
    ap = argparse.ArgumentParser(prog="python -m railyard.train")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    random.seed(args.seed)

    train = make_dataset(120, seed=args.seed)
    val = make_dataset(40, seed=2024)
    model = DwellGNN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        random.shuffle(train)
        for g in train:
            loss = torch.nn.functional.mse_loss(model(g["x"], g["edge_index"]), g["y"])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1}: last_loss={loss.item():.3f} val_mae_h={evaluate(model, val):.3f}")
    print(f"val_mae_h={evaluate(model, val):.4f}")


if __name__ == "__main__":
    main()
