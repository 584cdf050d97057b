import argparse
import time

import torch
import torch.nn.functional as F

from setcls.data import SHAPES, make_point_sets
from setcls.model import SetTransformerClassifier


def get_args():
    p = argparse.ArgumentParser(prog="python -m setcls")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--n-train", type=int, default=3000)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


@torch.no_grad()
def accuracy(model, clouds, labels, batch_size=500):
    model.eval()
    hits = 0
    for i in range(0, len(labels), batch_size):
        hits += (model(clouds[i:i + batch_size]).argmax(-1) == labels[i:i + batch_size]).sum().item()
    return hits / len(labels)


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    train_x, train_y = make_point_sets(args.n_train, seed=args.seed + 1)
    test_x, test_y = make_point_sets(1000, seed=args.seed + 2)

    model = SetTransformerClassifier(n_classes=len(SHAPES))
    optim = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(optim, T_max=args.epochs)

    for epoch in range(args.epochs):
        t0 = time.time()
        model.train()
        order = torch.randperm(len(train_y))
        losses = []
        for i in range(0, len(order), args.batch_size):
            batch = order[i:i + args.batch_size]
            loss = F.cross_entropy(model(train_x[batch]), train_y[batch])
            optim.zero_grad()
            loss.backward()
            optim.step()
            losses.append(loss.item())
        sched.step()
        print(f"epoch {epoch + 1:02d}  loss {sum(losses) / len(losses):.4f}  "
              f"test_acc {accuracy(model, test_x, test_y):.3f}  ({time.time() - t0:.1f}s)")
