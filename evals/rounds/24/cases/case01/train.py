import argparse
import json

import numpy as np
import torch
import torch.nn as nn


class ClaimFrequency(nn.Module):
    def __init__(self, n_feat, region_vectors, hidden=32):
        super().__init__()
        self.region = nn.Embedding.from_pretrained(torch.tensor(region_vectors, dtype=torch.float32))
        self.region.requires_grad_(False)
        d = n_feat + self.region.embedding_dim
        self.net = nn.Sequential(nn.Linear(d, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x, region, exposure):
        z = torch.cat([x, self.region(region)], -1)
        # log expected claims = log rate per policy-year + log exposure (fixed offset)
        return self.net(z).squeeze(-1) + torch.log(exposure)


def poisson_deviance(mu, y):
    term = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return (2 * (term - (y - mu))).mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    d = np.load("policies.npz")
    vecs = json.load(open("region_vectors.json"))["vectors"]
    X, region = torch.from_numpy(d["X"]), torch.from_numpy(d["region"])
    expo, y = torch.from_numpy(d["exposure"]), torch.from_numpy(d["claims"])
    g = torch.Generator().manual_seed(args.seed)
    idx = torch.randperm(len(y), generator=g)
    va, tr = idx[:4000], idx[4000:]
    mu_x, sd_x = X[tr].mean(0), X[tr].std(0)
    X = (X - mu_x) / sd_x

    model = ClaimFrequency(X.shape[1], vecs)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    loss_fn = nn.PoissonNLLLoss(log_input=True, full=False)
    for epoch in range(args.epochs):
        model.train()
        perm = tr[torch.randperm(len(tr), generator=g)]
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            opt.zero_grad()
            loss = loss_fn(model(X[b], region[b], expo[b]), y[b])
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} poisson_nll={tot / len(tr):.4f}")

    model.eval()
    with torch.no_grad():
        mu = model(X[va], region[va], expo[va]).exp()
        base = expo[va] * (y[tr].sum() / expo[tr].sum())
    print(f"intercept_only_deviance={poisson_deviance(base, y[va]):.4f}")
    print(f"val_deviance={poisson_deviance(mu, y[va]):.4f}")


if __name__ == "__main__":
    main()
