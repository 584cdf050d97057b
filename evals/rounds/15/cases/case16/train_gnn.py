import argparse
import random

import torch

from chains import N_TYPES, collate, make_dataset
from gnn import PolymerGNN


def r2(pred, y):
    return 1.0 - ((pred - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)

    train = make_dataset(1500, seed=args.seed + 1)
    val = make_dataset(300, seed=555)
    vx, vei, vb, vy = collate(val)

    model = PolymerGNN(N_TYPES)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        random.shuffle(train)
        for i in range(0, len(train), args.batch_size):
            chunk = train[i:i + args.batch_size]
            x, ei, b, y = collate(chunk)
            loss = torch.nn.functional.mse_loss(model(x, ei, b, len(chunk)), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            with torch.no_grad():
                score = r2(model(vx, vei, vb, len(val)), vy)
            print(f"epoch {epoch + 1} mse {loss.item():.4f} val_r2 {score:.4f}")
    with torch.no_grad():
        score = r2(model(vx, vei, vb, len(val)), vy)
    print(f"val_r2={score:.4f}")


if __name__ == "__main__":
    main()
