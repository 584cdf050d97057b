import argparse

import torch

from densities import DENSITIES
from flows import NormalizingFlow


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--density", default="banana", choices=sorted(DENSITIES))
    ap.add_argument("--layers", type=int, default=24)
    ap.add_argument("--iters", type=int, default=2500)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    sample = DENSITIES[args.density]
    gen = torch.Generator().manual_seed(1000 + args.seed)
    test_x = sample(5000, torch.Generator().manual_seed(4242))

    flow = NormalizingFlow(2, args.layers)
    opt = torch.optim.Adam(flow.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.iters)

    running = 0.0
    for it in range(1, args.iters + 1):
        x = sample(args.batch, gen)
        loss = -flow.log_prob(x).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running += loss.item()
        if it % 250 == 0:
            with torch.no_grad():
                test_nll = -flow.log_prob(test_x).mean().item()
            print(f"iter {it:5d} train_nll {running / 250:.4f} test_nll {test_nll:.4f}")
            running = 0.0

    with torch.no_grad():
        test_nll = -flow.log_prob(test_x).mean().item()
    print(f"test_nll={test_nll:.4f}")


if __name__ == "__main__":
    main()
