import argparse
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

from model import DensityNet, count_loss
from synth import render


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--n-train", type=int, default=1200)
    p.add_argument("--n-val", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    torch.manual_seed(args.seed)
    xtr, ctr = render(args.n_train, seed=11)
    xva, cva = render(args.n_val, seed=12)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(xtr), torch.from_numpy(ctr)),
                          batch_size=args.batch_size, shuffle=True)
    xva, cva = torch.from_numpy(xva), torch.from_numpy(cva)

    model = DensityNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        tot, nb = 0.0, 0
        for x, c in train_dl:
            loss = count_loss(model(x), c)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
            nb += 1
        model.eval()
        with torch.no_grad():
            pred = model(xva).sum(dim=(1, 2, 3))
            mae = (pred - cva).abs().mean().item()
        print(f"epoch {epoch + 1:2d}  loss {tot / nb:8.3f}  val_mae {mae:.3f}  ({time.time() - t0:.1f}s)")
    baseline = (cva - cva.mean()).abs().mean().item()
    print(f"(predict-the-mean baseline mae {baseline:.3f})")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
