import argparse
import json
import os
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from cells import TARGETS, generate
from chem_table import descriptor_table
from net import CellNet


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--clip", type=float, default=50.0)
    ap.add_argument("--out", default="export")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x, chem, y = generate(5000, seed=100 + args.seed)
    y_mean, y_std = y.mean(0), y.std(0)
    yz = (y - y_mean) / y_std                      # one scale per target

    model = CellNet(x.shape[1], descriptor_table())
    with torch.no_grad():
        model.feat_mean.copy_(torch.from_numpy(x.mean(0)))
        model.feat_std.copy_(torch.from_numpy(x.std(0)))
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(trainable, lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=15, gamma=0.3)
    dl = DataLoader(TensorDataset(torch.from_numpy(x), torch.from_numpy(chem), torch.from_numpy(yz)),
                    batch_size=args.batch_size, shuffle=True)

    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        tot, peak = 0.0, 0.0
        for xb, cb, yb in dl:
            loss = F.smooth_l1_loss(model(xb, cb), yb, beta=0.5)
            opt.zero_grad()
            loss.backward()
            peak = max(peak, torch.nn.utils.clip_grad_norm_(trainable, args.clip).item())
            opt.step()
            tot += loss.item() * len(xb)
        sched.step()
        if epoch % 10 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch:2d}  loss {tot / len(dl.dataset):.5f}  peak_grad_norm {peak:.2f}  lr {sched.get_last_lr()[0]:.1e}")

    os.makedirs(args.out, exist_ok=True)
    model.eval()
    torch.jit.script(model).save(os.path.join(args.out, "cellprops.ts"))
    with open(os.path.join(args.out, "target_stats.json"), "w") as f:
        json.dump({"targets": TARGETS, "mean": y_mean.tolist(), "std": y_std.tolist()}, f, indent=1)
    print(f"exported to {args.out}/ in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
