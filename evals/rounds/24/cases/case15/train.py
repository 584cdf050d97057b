import argparse

import torch
import torch.nn.functional as F

from gamenight.model import GroupScorer
from gamenight.sim import simulate_nights


def r2(pred, y):
    return 1 - ((pred - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    P, G, S = map(torch.from_numpy, simulate_nights(6000, seed=args.seed))
    Ptr, Gtr, Str = P[:5000], G[:5000], S[:5000]
    Pva, Gva, Sva = P[5000:], G[5000:], S[5000:]

    model = GroupScorer()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Ptr))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            opt.zero_grad()
            loss = F.mse_loss(model(Ptr[b], Gtr[b]), Str[b])
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} train_mse={tot / len(perm):.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(Pva, Gva)
    print(f"val_mse={F.mse_loss(pred, Sva).item():.4f}")
    print(f"val_r2={r2(pred, Sva):.4f}")


if __name__ == "__main__":
    main()
