import argparse

import torch
import torch.nn.functional as F

from common import BaseMLP, accuracy, make_domain


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--out", default="base.pt")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    x, y = make_domain(seed_mix=1, n=6000, seed=10 + args.seed)
    xt, yt = make_domain(seed_mix=1, n=1500, seed=20 + args.seed)
    model = BaseMLP()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(x))
        for i in range(0, len(x), 128):
            idx = perm[i:i + 128]
            loss = F.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"source_acc={accuracy(model, xt, yt):.4f}")
    torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
