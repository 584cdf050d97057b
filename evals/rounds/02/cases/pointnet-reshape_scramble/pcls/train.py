import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from .model import PointNetLite
from .shapes import CLASSES, make_dataset


def get_args():
    p = argparse.ArgumentParser(prog="python -m pcls.train")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--points", type=int, default=96)
    p.add_argument("--n-train", type=int, default=1500)
    p.add_argument("--n-val", type=int, default=400)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def augment(pts):
    # random rotation about z plus small jitter, applied per batch
    th = torch.rand(pts.shape[0]) * 2 * np.pi
    c, s = torch.cos(th), torch.sin(th)
    rot = torch.zeros(pts.shape[0], 3, 3)
    rot[:, 0, 0], rot[:, 0, 1], rot[:, 1, 0], rot[:, 1, 1], rot[:, 2, 2] = c, -s, s, c, 1.0
    return pts @ rot.transpose(1, 2) + 0.01 * torch.randn_like(pts)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    hits = n = 0
    for pts, y in loader:
        hits += (model(pts).argmax(-1) == y).sum().item()
        n += y.numel()
    model.train()
    return hits / n


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    xtr, ytr = make_dataset(args.n_train, args.points, seed=args.seed)
    xva, yva = make_dataset(args.n_val, args.points, seed=args.seed + 10_000)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(xtr), torch.from_numpy(ytr)),
                          batch_size=args.batch_size, shuffle=True, drop_last=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(xva), torch.from_numpy(yva)), batch_size=200)

    model = PointNetLite(len(CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=6, gamma=0.3)

    t0 = time.time()
    for epoch in range(1, args.epochs + 1):
        tot = cnt = 0
        for pts, y in train_dl:
            loss = F.cross_entropy(model(augment(pts)), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            tot += loss.item() * y.numel()
            cnt += y.numel()
        sched.step()
        if epoch % 3 == 0 or epoch == args.epochs:
            print(f"[{epoch:02d}] loss {tot / cnt:.4f}  val_acc {evaluate(model, val_dl):.3f}  "
                  f"lr {sched.get_last_lr()[0]:.1e}  {time.time() - t0:.0f}s")
    print(f"METRIC val_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
