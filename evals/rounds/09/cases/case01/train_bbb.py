import argparse
import json

import numpy as np
import torch

from bayes_layers import BayesMLP


def stations(n, rng):
    """Soil moisture from rainfall, temperature, clay fraction, slope, ..."""
    x = rng.normal(size=(n, 6)).astype(np.float32)
    y = (0.6 * np.tanh(x[:, 0]) - 0.4 * x[:, 1] + 0.3 * x[:, 2] * x[:, 0]
         + 0.2 * np.sin(2 * x[:, 3]) + rng.normal(0, 0.1, n)).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="bbb.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)

    x_tr, y_tr = stations(cfg["n_train"], rng)
    x_va, y_va = stations(cfg["n_val"], rng)
    n = len(x_tr)

    model = BayesMLP(x_tr.shape[1], cfg["hidden"], cfg["prior_sigma"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    noise = torch.tensor(cfg["noise_sigma"])

    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(n)
        for i in range(0, n, cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            pred = model(x_tr[idx])
            nll = torch.nn.functional.gaussian_nll_loss(pred, y_tr[idx], noise.pow(2).expand_as(pred))
            loss = nll + cfg["kl_weight"] * model.kl() / n
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 15 == 0:
            print(f"epoch {epoch + 1} neg_elbo/N {loss.item():.4f} kl {model.kl().item():.1f}")

    with torch.no_grad():
        samples = torch.stack([model(x_va) for _ in range(20)])
    mean = samples.mean(0)
    lo, hi = samples.quantile(0.05, 0), samples.quantile(0.95, 0)
    cover = ((y_va >= lo - 1.645 * cfg["noise_sigma"]) & (y_va <= hi + 1.645 * cfg["noise_sigma"])).float().mean()
    rmse = ((mean - y_va) ** 2).mean().sqrt()
    print(f"coverage90={cover:.3f}")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
