import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from town import N_PLAZAS, simulate


class FootfallModel(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.plaza = nn.Embedding(N_PLAZAS, dim)
        self.weekday = nn.Embedding(7, dim)
        self.out = nn.Sequential(nn.Linear(2 * dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, p, wd):
        return self.out(torch.cat([self.plaza(p), self.weekday(wd)], -1)).squeeze(-1)


class SalesModel(nn.Module):
    def __init__(self, plaza_emb, n_feat):
        super().__init__()
        self.plaza = plaza_emb
        dim = plaza_emb.embedding_dim
        self.mlp = nn.Sequential(nn.Linear(dim + n_feat, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                                 nn.Linear(64, 1))

    def forward(self, p, feats):
        return self.mlp(torch.cat([self.plaza(p), feats], -1)).squeeze(-1)


def fit(model, params, batches_fn, epochs, lr):
    opt = torch.optim.Adam(params, lr=lr)
    for epoch in range(epochs):
        for loss in batches_fn(model):
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    (fp, fwd, foot), (sp, swd, feats, sales) = simulate(args.seed)
    fp, fwd, foot = torch.tensor(fp), torch.tensor(fwd), torch.tensor(foot)

    # step 1: footfall pretraining
    def foot_batches(m):
        perm = torch.randperm(len(foot))
        for i in range(0, len(perm), 256):
            idx = perm[i:i + 256]
            yield F.mse_loss(m(fp[idx], fwd[idx]), foot[idx] - 5.0)
    foot_model = FootfallModel()
    fit(foot_model, foot_model.parameters(), foot_batches, 6, 1e-2)
    with torch.no_grad():
        print(f"footfall mse {F.mse_loss(foot_model(fp, fwd), foot - 5.0).item():.4f}")

    # step 2: sales on top of the fixed plaza embedding
    plaza_emb = foot_model.plaza
    plaza_emb.requires_grad_(False)
    sp, feats, sales = torch.tensor(sp), torch.tensor(feats), torch.tensor(sales)
    n_tr = int(0.8 * len(sales))
    y_mu, y_sd = sales[:n_tr].mean(), sales[:n_tr].std()
    model = SalesModel(plaza_emb, feats.shape[1])

    def sales_batches(m):
        m.train()
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, 64):
            idx = perm[i:i + 64]
            pred = m(sp[idx], feats[idx])
            yield F.mse_loss(pred, (sales[idx] - y_mu) / y_sd)
    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"sales model: {sum(p.numel() for p in trainable)} trainable parameters "
          f"({plaza_emb.weight.numel()} frozen in the plaza embedding)")
    fit(model, trainable, sales_batches, args.epochs, 3e-3)

    model.eval()
    with torch.no_grad():
        pred = model(sp[n_tr:], feats[n_tr:]) * y_sd + y_mu
    yv = sales[n_tr:]
    r2 = 1 - ((pred - yv) ** 2).sum() / ((yv - yv.mean()) ** 2).sum()
    print(f"val_r2={r2.item():.4f}")


if __name__ == "__main__":
    main()
