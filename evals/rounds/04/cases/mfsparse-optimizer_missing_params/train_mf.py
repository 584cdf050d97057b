import json
import sys

import numpy as np
import torch
import torch.nn as nn


def make_ratings(cfg):
    rng = np.random.default_rng(cfg["data_seed"])
    U = rng.normal(0, 1, (cfg["n_users"], cfg["rank_true"]))
    V = rng.normal(0, 1, (cfg["n_items"], cfg["rank_true"]))
    bu = rng.normal(0, 0.3, cfg["n_users"])
    bi = rng.normal(0, 0.3, cfg["n_items"])
    mask = rng.random((cfg["n_users"], cfg["n_items"])) < cfg["density"]
    u, i = np.nonzero(mask)
    r = 3.5 + bu[u] + bi[i] + 0.6 * (U[u] * V[i]).sum(1) + rng.normal(0, 0.3, len(u))
    order = rng.permutation(len(u))
    u, i, r = u[order], i[order], r[order]
    n_val = len(u) // 10
    as_t = lambda a, dt: torch.as_tensor(a, dtype=dt)
    val = (as_t(u[:n_val], torch.long), as_t(i[:n_val], torch.long), as_t(r[:n_val], torch.float32))
    train = (as_t(u[n_val:], torch.long), as_t(i[n_val:], torch.long), as_t(r[n_val:], torch.float32))
    return train, val


class BiasedMF(nn.Module):
    def __init__(self, n_users, n_items, dim, mu):
        super().__init__()
        self.user_factors = nn.Embedding(n_users, dim, sparse=True)
        self.item_factors = nn.Embedding(n_items, dim, sparse=True)
        self.user_bias = nn.Embedding(n_users, 1, sparse=True)
        self.item_bias = nn.Embedding(n_items, 1, sparse=True)
        self.offset = nn.Parameter(torch.tensor(float(mu)))
        for emb in (self.user_factors, self.item_factors):
            nn.init.normal_(emb.weight, std=0.1)
        for emb in (self.user_bias, self.item_bias):
            nn.init.zeros_(emb.weight)

    def forward(self, u, i):
        dot = (self.user_factors(u) * self.item_factors(i)).sum(-1)
        return self.offset + self.user_bias(u).squeeze(-1) + self.item_bias(i).squeeze(-1) + dot


def build_optimizers(model, cfg):
    sparse, dense = [], []
    for name, module in model.named_children():
        if name in cfg["sparse_tables"]:
            sparse += list(module.parameters())
    sparse_ids = {id(p) for p in sparse}
    for name, p in model.named_parameters():
        if id(p) not in sparse_ids and not name.endswith("factors.weight"):
            dense.append(p)
    return [torch.optim.SparseAdam(sparse, lr=cfg["lr_sparse"]), torch.optim.Adam(dense, lr=cfg["lr_dense"])]


def rmse(model, data):
    u, i, r = data
    with torch.no_grad():
        return (model(u, i) - r).pow(2).mean().sqrt().item()


def main():
    args = [a for a in sys.argv[1:]]
    cfg = json.load(open(args[0] if args and not args[0].startswith("--") else "mf_config.json"))
    if "--seed" in args:
        cfg["seed"] = int(args[args.index("--seed") + 1])
    torch.manual_seed(cfg["seed"])
    train, val = make_ratings(cfg)
    model = BiasedMF(cfg["n_users"], cfg["n_items"], cfg["dim"], train[2].mean())
    optimizers = build_optimizers(model, cfg)
    n = len(train[0])
    for epoch in range(1, cfg["epochs"] + 1):
        perm = torch.randperm(n)
        tot = 0.0
        for s in range(0, n, cfg["batch_size"]):
            idx = perm[s:s + cfg["batch_size"]]
            u, i, r = (t[idx] for t in train)
            loss = (model(u, i) - r).pow(2).mean()
            for opt in optimizers:
                opt.zero_grad()
            loss.backward()
            for opt in optimizers:
                opt.step()
            tot += loss.item() * len(idx)
        if epoch % 5 == 0:
            print(f"epoch {epoch:3d} train_mse {tot / n:.4f} val_rmse {rmse(model, val):.4f}")
    print(f"val_rmse={rmse(model, val):.4f}")


if __name__ == "__main__":
    main()
