import argparse
import time

import numpy as np
import torch
from flows import RealNVP
from toy2d import pinwheel


def main():
    ap = argparse.ArgumentParser(description="fit a RealNVP flow to the pinwheel density")
    ap.add_argument("--steps", type=int, default=800)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--n-coupling", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    train = torch.from_numpy(pinwheel(20000, rng))
    val = torch.from_numpy(pinwheel(4000, np.random.default_rng(12345)))

    flow = RealNVP(2, args.n_coupling)
    with torch.no_grad():                 # data-dependent ActNorm init on one batch
        flow.log_prob(train[:1024])
    opt = torch.optim.Adam(flow.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.steps)

    t0 = time.time()
    for step in range(1, args.steps + 1):
        idx = torch.randint(0, len(train), (args.batch_size,))
        nll = -flow.log_prob(train[idx]).mean()
        opt.zero_grad()
        nll.backward()
        opt.step()
        sched.step()
        if step % 200 == 0:
            with torch.no_grad():
                v = -flow.log_prob(val).mean().item()
            print(f"step {step:5d}  train_nll {nll.item():.4f}  val_nll {v:.4f}  ({time.time() - t0:.1f}s)")

    with torch.no_grad():
        v = -flow.log_prob(val).mean().item()
    print(f"METRIC val_nll={v:.4f}")


if __name__ == "__main__":
    main()
