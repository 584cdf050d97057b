import argparse
import math

import numpy as np
import torch

from field import height_map, split
from model import DeepField


def psnr(pred, target):
    mse = torch.mean((pred - target) ** 2).item()
    peak = (target.max() - target.min()).item()
    return 10 * math.log10(peak ** 2 / mse)


def main():
    ap = argparse.ArgumentParser(description="fit a height map with a deep MLP, checkpointed trunk")
    ap.add_argument("--width", type=int, default=64)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--segments", type=int, default=4)
    ap.add_argument("--steps", type=int, default=800)
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    coords, z = height_map()
    tr, va = split(len(z), 0.6, seed=args.seed)
    xy_tr, z_tr = torch.from_numpy(coords[tr]), torch.from_numpy(z[tr])
    xy_va, z_va = torch.from_numpy(coords[va]), torch.from_numpy(z[va])

    model = DeepField(args.width, args.depth, args.segments)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps)
    gen = torch.Generator().manual_seed(args.seed)

    for step in range(1, args.steps + 1):
        idx = torch.randint(0, len(xy_tr), (args.batch_size,), generator=gen)
        model.train()
        loss = torch.mean((model(xy_tr[idx]) - z_tr[idx]) ** 2)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0:
            model.eval()
            with torch.no_grad():
                print(f"step {step:5d}  train_mse {loss.item():.4f}  val_psnr {psnr(model(xy_va), z_va):.2f} dB")

    model.eval()
    with torch.no_grad():
        print(f"val_psnr={psnr(model(xy_va), z_va):.3f}")


if __name__ == "__main__":
    main()
