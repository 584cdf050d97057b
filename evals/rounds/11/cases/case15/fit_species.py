"""Joint species-abundance model.

Predicts counts of several species at a survey site from environmental
covariates (temperature, rainfall, canopy cover, soil pH, ...). Counts are
heavy-tailed, so the network is fit on log1p(count) and predictions are
mapped back with expm1 for reporting.
"""
import argparse
import json

import numpy as np
import torch
import torch.nn as nn

ACTIVATIONS = {
    "identity": nn.Identity,
    "softplus": nn.Softplus,
    "relu": nn.ReLU,
    "sigmoid": nn.Sigmoid,
}
TRANSFORMS = {
    "log1p": (np.log1p, np.expm1),
    "none": (lambda a: a, lambda a: a),
}


def simulate_survey(n_sites, n_cov, n_species, seed):
    rng = np.random.default_rng(seed)
    env = rng.normal(size=(n_sites, n_cov))
    # niche model: each species responds to a couple of covariates, with an optimum
    coef = rng.normal(0, 0.7, size=(n_cov, n_species)) * (rng.random((n_cov, n_species)) < 0.4)
    optimum = rng.normal(0, 1, size=n_species)
    width = rng.uniform(0.8, 1.5, size=n_species)
    intercept = rng.uniform(1.5, 4.0, size=n_species)
    log_rate = intercept + env @ coef - ((env[:, :1] - optimum) ** 2) / (2 * width ** 2)
    counts = rng.poisson(np.exp(np.clip(log_rate, -5, 7)))
    return env.astype(np.float32), counts.astype(np.float32)


def build_net(n_in, n_out, hidden, dropout, output_activation):
    layers, d = [], n_in
    for h in hidden:
        layers += [nn.Linear(d, h), nn.SiLU()]
        if dropout:
            layers.append(nn.Dropout(dropout))
        d = h
    layers += [nn.Linear(d, n_out), ACTIVATIONS[output_activation]()]
    return nn.Sequential(*layers)


def r2_per_column(pred, true):
    ss_res = ((true - pred) ** 2).sum(0)
    ss_tot = ((true - true.mean(0)) ** 2).sum(0)
    return 1 - ss_res / ss_tot


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["training"]["seed"] = args.seed
    sv, net_cfg, tr = cfg["survey"], cfg["network"], cfg["training"]
    torch.manual_seed(tr["seed"])

    env, counts = simulate_survey(sv["n_sites"], sv["n_covariates"], sv["n_species"], sv["seed"])
    fwd, inv = TRANSFORMS[cfg["target_transform"]]
    y = fwd(counts)
    rng = np.random.default_rng(tr["seed"])
    idx = rng.permutation(len(env))
    n_val = int(len(env) * sv["val_fraction"])
    va, trn = idx[:n_val], idx[n_val:]
    mu, sd = env[trn].mean(0), env[trn].std(0)
    Xtr = torch.from_numpy((env[trn] - mu) / sd)
    Xva = torch.from_numpy((env[va] - mu) / sd)
    ytr, yva = torch.from_numpy(y[trn]), torch.from_numpy(y[va])
    print(f"sites train={len(trn)} val={len(va)}; target range [{y.min():.2f}, {y.max():.2f}]")

    net = build_net(Xtr.shape[1], ytr.shape[1], net_cfg["hidden"], net_cfg["dropout"],
                    net_cfg["output_activation"])
    opt = torch.optim.Adam(net.parameters(), lr=tr["lr"])
    loss_fn = nn.MSELoss()
    for epoch in range(tr["epochs"]):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), tr["batch_size"]):
            b = perm[i:i + tr["batch_size"]]
            loss = loss_fn(net(Xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            with torch.no_grad():
                r2 = r2_per_column(net(Xva), yva).mean().item()
            print(f"epoch {epoch + 1} train_mse={loss.item():.4f} val_r2_log={r2:.4f}")

    with torch.no_grad():
        pred = net(Xva)
    r2 = r2_per_column(pred, yva)
    counts_pred = inv(pred.numpy())
    mae_counts = np.abs(counts_pred - inv(yva.numpy())).mean()
    print("per-species r2:", " ".join(f"{v:.2f}" for v in r2.tolist()))
    print(f"val_mae_counts={mae_counts:.2f}")
    print(f"val_r2={r2.mean().item():.4f}")


if __name__ == "__main__":
    main()
