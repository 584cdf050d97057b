import sys
import tomllib
import numpy as np
import torch
import torch.nn as nn


def tiles(n, seed):
    rng = np.random.default_rng(seed)
    sg = rng.uniform(1.3, 1.8, n)          # slurry specific gravity
    dip = rng.uniform(1, 8, n)             # dip time, s
    bisque_porosity = rng.uniform(0.05, 0.25, n)
    cone = rng.integers(4, 11, n)
    flux = rng.uniform(0.1, 0.4, n)
    thick = 180 * (sg - 1.2) * np.sqrt(dip) * (0.5 + 3 * bisque_porosity) * (1 - 0.04 * (cone - 4) * flux)
    thick += rng.normal(0, 5, n)
    X = np.stack([sg, dip, bisque_porosity, cone, flux], 1)
    return X.astype(np.float32), thick.astype(np.float32)


def main():
    cfg = tomllib.load(open(sys.argv[1] if len(sys.argv) > 1 else "kiln.toml", "rb"))
    tc = cfg["train"]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else tc["seed"]
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    X, y = map(torch.from_numpy, tiles(cfg["data"]["n_train"], 7))
    Xv, yv = map(torch.from_numpy, tiles(cfg["data"]["n_val"], 8))
    mu, sd = X.mean(0), X.std(0)
    ymu, ysd = y.mean(), y.std()
    X, Xv = (X - mu) / sd, (Xv - mu) / sd
    model = nn.Sequential(nn.Linear(5, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=tc["lr"], momentum=tc["momentum"])
    step = 0
    g = torch.Generator().manual_seed(seed)
    for ep in range(tc["epochs"]):
        perm = torch.randperm(len(X), generator=g)
        for i in range(0, len(perm), tc["batch"]):
            b = perm[i:i + tc["batch"]]
            pred = model(X[b]).squeeze(1)
            loss = ((pred - (y[b] - ymu) / ysd) ** 2).mean()
            loss.backward()
            opt.step()
            if step % tc["log_every"] == 0:
                opt.zero_grad()
            step += 1
        with torch.no_grad():
            mae = ((model(Xv).squeeze(1) * ysd + ymu) - yv).abs().mean().item()
        if ep % 10 == 9:
            print(f"epoch {ep+1} step {step} loss {loss.item():.4f} val_mae_um {mae:.2f}")
    print(f"val_mae_um={mae:.2f}")


if __name__ == "__main__":
    main()
