"""Meta-train a hypernetwork over sinusoid tasks and evaluate on unseen tasks."""
import argparse

import torch

from hypernet import HyperNetwork, target_forward
from tasks import descriptor, sample_points, sample_tasks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--tasks-per-step", type=int, default=32)
    ap.add_argument("--points", type=int, default=32)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    eval_gen = torch.Generator().manual_seed(12345)
    val_params = sample_tasks(256, eval_gen)
    val_desc = descriptor(val_params, eval_gen)
    val_x, val_y = sample_points(val_params, 64, eval_gen)
    print(f"val target variance {val_y.var().item():.3f}")

    net = HyperNetwork()
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.steps)

    for step in range(1, args.steps + 1):
        params = sample_tasks(args.tasks_per_step, gen)
        x, y = sample_points(params, args.points, gen)
        pred = target_forward(net(descriptor(params, gen)), x)
        loss = torch.mean((pred - y) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 500 == 0:
            with torch.no_grad():
                val = torch.mean((target_forward(net(val_desc), val_x) - val_y) ** 2).item()
            print(f"step {step:5d}  train_mse {loss.item():.4f}  val_mse {val:.4f}")

    with torch.no_grad():
        val = torch.mean((target_forward(net(val_desc), val_x) - val_y) ** 2).item()
    print(f"val_mse={val:.5f}")


if __name__ == "__main__":
    main()
