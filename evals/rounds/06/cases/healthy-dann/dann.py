import argparse
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from plants import readings


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return -ctx.lambd * grad_output, None


class DANN(nn.Module):
    def __init__(self, d_in=8, hidden=64):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.label_head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2))
        self.domain_head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x, lambd=0.0):
        f = self.features(x)
        return self.label_head(f), self.domain_head(GradReverse.apply(f, lambd)).squeeze(-1)


def accuracy(model, x, y):
    with torch.no_grad():
        return (model(x)[0].argmax(dim=1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    xs, ys = map(torch.from_numpy, readings(4000, 1, shifted=False))
    xt, yt = map(torch.from_numpy, readings(4000, 2, shifted=True))  # yt: evaluation only
    model = DANN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    steps_per_epoch = len(xs) // args.batch_size
    total_steps = args.epochs * steps_per_epoch
    step = 0
    for epoch in range(args.epochs):
        ps, pt = torch.randperm(len(xs)), torch.randperm(len(xt))
        for i in range(steps_per_epoch):
            p = step / total_steps
            lambd = 2.0 / (1.0 + math.exp(-10 * p)) - 1.0
            bs = ps[i * args.batch_size:(i + 1) * args.batch_size]
            bt = pt[i * args.batch_size:(i + 1) * args.batch_size]
            x = torch.cat([xs[bs], xt[bt]])
            dom = torch.cat([torch.zeros(len(bs)), torch.ones(len(bt))])
            class_logits, dom_logits = model(x, lambd)
            cls_loss = F.cross_entropy(class_logits[:len(bs)], ys[bs])
            dom_loss = F.binary_cross_entropy_with_logits(dom_logits, dom)
            loss = cls_loss + dom_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1}: cls={cls_loss.item():.3f} dom={dom_loss.item():.3f} lambda={lambd:.2f}")

    model.eval()
    print(f"source_acc={accuracy(model, xs, ys):.4f}")
    print(f"target_acc={accuracy(model, xt, yt):.4f}")


if __name__ == "__main__":
    main()
