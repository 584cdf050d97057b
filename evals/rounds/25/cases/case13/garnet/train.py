import argparse
import random

import numpy as np
import torch

from .model import CrystalNet
from .ops import collate_graphs
from .structures import SPECIES, make_dataset


def batches(data, bs, shuffle, rng):
    idx = list(range(len(data)))
    if shuffle:
        rng.shuffle(idx)
    for i in range(0, len(idx), bs):
        yield collate_graphs([data[j] for j in idx[i:i + bs]])


def evaluate(model, data):
    model.eval()
    errs = []
    with torch.no_grad():
        for b in batches(data, 256, False, None):
            errs.append((model(b) - b["y"]).abs())
    return torch.cat(errs).mean().item()


def main():
    ap = argparse.ArgumentParser(prog="garnet.train")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--n-train", type=int, default=800)
    ap.add_argument("--n-val", type=int, default=200)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    train = make_dataset(args.n_train, seed=100)
    val = make_dataset(args.n_val, seed=200)
    ys = np.array([d["y"] for d in train])
    print(f"train {len(train)} crystals, target mean {ys.mean():.3f} sd {ys.std():.3f}")
    print(f"baseline (predict mean) val_mae {np.mean([abs(d['y'] - ys.mean()) for d in val]):.4f}")

    model = CrystalNet(len(SPECIES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
    for epoch in range(args.epochs):
        model.train()
        for b in batches(train, args.batch_size, True, rng):
            loss = torch.nn.functional.l1_loss(model(b), b["y"])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1:3d}  train_l1 {loss.item():.4f}  val_mae {evaluate(model, val):.4f}")
    print(f"val_mae={evaluate(model, val):.4f}")


if __name__ == "__main__":
    main()
