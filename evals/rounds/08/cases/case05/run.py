import argparse
import tomllib

import torch
import torch.nn as nn

from masking import corrupt, masked_mse, sample_mask
from tabdata import make_table


class Imputer(nn.Module):
    def __init__(self, n_features, hidden=128, depth=3):
        super().__init__()
        layers, d = [], 2 * n_features
        for _ in range(depth):
            layers += [nn.Linear(d, hidden), nn.SiLU()]
            d = hidden
        layers.append(nn.Linear(d, n_features))
        self.net = nn.Sequential(*layers)

    def forward(self, x, observed):
        return self.net(corrupt(x, observed))

    @torch.no_grad()
    def impute(self, x, observed):
        recon = self(x, observed)
        return torch.where(observed, x, recon)


def evaluate(model, x_val, rate, seed=123):
    g = torch.Generator().manual_seed(seed)
    observed = sample_mask(x_val.shape, rate, g)
    model.eval()
    filled = model.impute(x_val, observed)
    hidden = ~observed
    return ((filled - x_val)[hidden] ** 2).mean().sqrt().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="imputer.toml")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    with open(args.config, "rb") as fh:
        cfg = tomllib.load(fh)
    tc = cfg["train"]
    seed = tc["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    x_tr, x_val = (torch.from_numpy(a) for a in make_table(**cfg["data"]))
    model = Imputer(x_tr.shape[1], cfg["model"]["hidden"], cfg["model"]["depth"])
    opt = torch.optim.AdamW(model.parameters(), lr=tc["lr"], weight_decay=1e-4)
    rate = cfg["masking"]["train_missing_rate"]

    for epoch in range(1, tc["epochs"] + 1):
        model.train()
        perm = torch.randperm(len(x_tr))
        tot, nb = 0.0, 0
        for i in range(0, len(perm), tc["batch_size"]):
            xb = x_tr[perm[i:i + tc["batch_size"]]]
            observed = sample_mask(xb.shape, rate)
            recon = model(xb, observed)
            loss = masked_mse(recon, xb, observed)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
            nb += 1
        if epoch % 5 == 0 or epoch == 1:
            rmse = evaluate(model, x_val, cfg["masking"]["eval_missing_rate"])
            print(f"epoch {epoch:3d} recon_loss {tot / nb:.4f} val_rmse {rmse:.4f}")
    print(f"val_imputation_rmse={evaluate(model, x_val, cfg['masking']['eval_missing_rate']):.4f}")


if __name__ == "__main__":
    main()
