import sys

import numpy as np
import torch
import torch.nn as nn

import settings as S
from portfolio import make_portfolio


class FrequencyModel(nn.Module):
    """log E[claims] = f(features, region) + log(exposure)."""

    def __init__(self, n_feats, n_regions, emb, hidden):
        super().__init__()
        self.region = nn.Embedding(n_regions, emb)
        self.body = nn.Sequential(nn.Linear(n_feats + emb, hidden), nn.Tanh(),
                                  nn.Linear(hidden, 1))

    def forward(self, feats, region, exposure):
        z = torch.cat([feats, self.region(region)], dim=1)
        return self.body(z).squeeze(1) + torch.log(exposure)


poisson = nn.PoissonNLLLoss(log_input=True, full=False)


def claim_loss(log_mu, claims):
    return poisson(claims, log_mu)


def deviance(mu, y):
    mu = np.maximum(mu, 1e-8)
    term = np.where(y > 0, y * np.log(np.maximum(y, 1e-8) / mu), 0.0)
    return float(np.mean(2 * (term - (y - mu))))


def main(seed=S.SEED):
    torch.manual_seed(seed)
    rng = np.random.default_rng(99)
    feats, region, exposure, claims = make_portfolio(S.N_POLICIES, S.N_REGIONS, rng)
    n_val = int(S.N_POLICIES * S.HOLDOUT_FRAC)
    tr, va = slice(n_val, None), slice(0, n_val)
    T = lambda a: torch.from_numpy(np.ascontiguousarray(a))
    Xtr, Rtr, Etr, Ytr = T(feats[tr]), T(region[tr]), T(exposure[tr]), T(claims[tr])
    Xva, Rva, Eva, Yva = T(feats[va]), T(region[va]), T(exposure[va]), claims[va]
    print(f"policies {len(Ytr)} train / {len(Yva)} holdout, "
          f"claim frequency {Ytr.sum().item() / Etr.sum().item():.4f} per hive-year")

    model = FrequencyModel(feats.shape[1], S.N_REGIONS, S.EMBED_DIM, S.HIDDEN)
    opt = torch.optim.Adam(model.parameters(), lr=S.LR)
    n = len(Ytr)
    for epoch in range(S.EPOCHS):
        model.train()
        perm = torch.randperm(n)
        total = 0.0
        for i in range(0, n, S.BATCH_SIZE):
            b = perm[i:i + S.BATCH_SIZE]
            log_mu = model(Xtr[b], Rtr[b], Etr[b])
            loss = claim_loss(log_mu, Ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            mu = model(Xva, Rva, Eva).exp().numpy()
        print(f"epoch {epoch:2d}  train_nll {total / n:8.4f}  val_dev {deviance(mu, Yva):.4f}")

    print(f"val_poisson_deviance={deviance(mu, Yva):.4f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else S.SEED)
