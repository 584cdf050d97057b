import argparse
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from surrogate import StepModel, rollout_rmse


def one_step_pairs(traj, params):
    B, T, _ = traj.shape
    s = traj[:, :-1].reshape(-1, 2)
    s_next = traj[:, 1:].reshape(-1, 2)
    p = params[:, None, :].expand(B, T - 1, 2).reshape(-1, 2)
    return s, p, s_next


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="data/trajectories.npz")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    d = np.load(args.data)
    tr, ptr = torch.from_numpy(d["train"]), torch.from_numpy(d["train_params"])
    te, pte = torch.from_numpy(d["test"]), torch.from_numpy(d["test_params"])
    loader = DataLoader(TensorDataset(*one_step_pairs(tr, ptr)), batch_size=args.batch_size, shuffle=True)

    model = StepModel()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        tot = 0.0
        for s, p, s_next in loader:
            loss = torch.mean((model(s, p) - s_next) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(s)
        sched.step()
        if epoch % 5 == 0 or epoch == args.epochs - 1:
            model.eval()
            print(f"epoch {epoch:2d}  one_step_mse {tot / len(loader.dataset):.2e}  rollout_rmse {rollout_rmse(model, te, pte):.4f}")
    model.eval()
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC rollout_rmse={rollout_rmse(model, te, pte):.4f}")


if __name__ == "__main__":
    main()
