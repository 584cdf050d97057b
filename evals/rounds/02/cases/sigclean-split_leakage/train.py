import argparse
import time

import torch
import torch.nn.functional as F
from data import make_traces
from model import ResidualDenoiser
from noise import corrupt
from torch.utils.data import DataLoader, TensorDataset


def parse_args():
    p = argparse.ArgumentParser(description="train the residual trace denoiser")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--sigma", type=float, default=0.3)
    p.add_argument("--drop-p", type=float, default=0.05)
    p.add_argument("--n-train", type=int, default=1536)
    p.add_argument("--n-val", type=int, default=256)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


@torch.no_grad()
def validate(model, val_noisy, val_clean):
    model.eval()
    den = model(val_noisy)
    mse = F.mse_loss(den, val_clean).item()
    base = F.mse_loss(val_noisy, val_clean).item()
    model.train()
    return mse, base


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    train_clean = make_traces(args.n_train, seed=args.seed)
    val_clean = make_traces(args.n_val, seed=args.seed + 1000)
    # fixed corruption for validation so epochs are comparable
    g = torch.Generator().manual_seed(1234)
    val_noisy = corrupt(val_clean, args.sigma, args.drop_p, generator=g)

    loader = DataLoader(TensorDataset(train_clean), batch_size=args.batch_size, shuffle=True)
    model = ResidualDenoiser()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    t0 = time.time()
    for epoch in range(1, args.epochs + 1):
        running, n = 0.0, 0
        for (clean,) in loader:
            noisy = corrupt(clean, args.sigma, args.drop_p)
            den = model(noisy)
            loss = F.mse_loss(den, clean)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * clean.shape[0]
            n += clean.shape[0]
        val_mse, noisy_mse = validate(model, val_noisy, val_clean)
        print(f"epoch {epoch:2d}  train_mse={running / n:.5f}  val_mse={val_mse:.5f}  "
              f"(input mse {noisy_mse:.5f})  {time.time() - t0:.1f}s")

    val_mse, _ = validate(model, val_noisy, val_clean)
    print(f"METRIC val_mse={val_mse:.6f}")


if __name__ == "__main__":
    main()
