"""Next-frame nowcasting of drifting rain cells with a ConvLSTM.

usage: python train.py [--epochs N] [--seed S]
"""
import argparse

import torch

from convlstm import Nowcaster
from synth import simulate
from windows import make_windows

N_IN = 4


@torch.no_grad()
def next_frame_mse(model, seqs):
    """Score on held-out sequences: observe frames [0, N_IN), predict frame N_IN."""
    model.eval()
    pred = model(seqs[:, :N_IN])
    model.train()
    return torch.mean((pred - seqs[:, N_IN]) ** 2).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_seqs = torch.from_numpy(simulate(300, 8, seed=args.seed))
    val_seqs = torch.from_numpy(simulate(200, N_IN + 1, seed=2024))
    x, y = make_windows(train_seqs, N_IN)
    print(f"{len(x)} training windows, val persistence mse "
          f"{torch.mean((val_seqs[:, N_IN - 1] - val_seqs[:, N_IN]) ** 2).item():.5f}")

    model = Nowcaster()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    gen = torch.Generator().manual_seed(args.seed)
    for epoch in range(1, args.epochs + 1):
        perm = torch.randperm(len(x), generator=gen)
        total = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            loss = torch.mean((model(x[idx]) - y[idx]) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch}  train_mse {total / len(x):.5f}  val_mse {next_frame_mse(model, val_seqs):.5f}")

    print(f"val_mse={next_frame_mse(model, val_seqs):.5f}")


if __name__ == "__main__":
    main()
