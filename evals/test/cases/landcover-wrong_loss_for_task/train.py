import argparse

import torch
import torch.nn as nn

from model import PixelClassifier
from utils import CLASSES, N_BANDS, AverageMeter, iterate_minibatches, load_pixels


def main():
    parser = argparse.ArgumentParser(description="Per-pixel land cover classification")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--bs", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    x_train, y_train, x_test, y_test = load_pixels(seed=args.seed)
    mean, std = x_train.mean(0), x_train.std(0)
    x_train, x_test = (x_train - mean) / std, (x_test - mean) / std

    model = PixelClassifier(N_BANDS)
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    gen = torch.Generator().manual_seed(args.seed)

    for epoch in range(1, args.epochs + 1):
        model.train()
        meter = AverageMeter()
        for bands, cover in iterate_minibatches(x_train, y_train, args.bs, gen):
            output = model(bands)
            loss = criterion(output, cover.float())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            meter.update(loss.item(), len(cover))
        if epoch % 5 == 0:
            model.eval()
            with torch.no_grad():
                pred = model.predict(x_test, len(CLASSES))
            print(f"Epoch [{epoch}/{args.epochs}]  loss: {meter.avg:.4f}  test acc: {(pred == y_test).float().mean():.4f}")

    for c, name in enumerate(CLASSES):
        sel = y_test == c
        print(f"  {name:<10s} acc {(pred[sel] == c).float().mean():.3f}")


if __name__ == "__main__":
    main()
