"""Reconstruction-based anomaly scoring for server telemetry."""
import time

import numpy as np
import torch
import torch.nn as nn

CONFIG = {
    "seed": 4,
    "n_metrics": 24,
    "n_factors": 3,
    "n_train": 6000,
    "n_test_normal": 1500,
    "n_test_anomalous": 300,
    "bottleneck": 3,
    "hidden": 64,
    "lr": 2e-3,
    "batch_size": 128,
    "epochs": 30,
    "decoder_warmup_epochs": 3,   # train the decoder alone first, then everything
}


# ----------------------------------------------------------------------------- data
def make_generator(n_metrics, n_factors, seed):
    g = np.random.default_rng(seed)
    A = g.normal(0, 1, (n_factors, n_metrics))
    B = g.normal(0, 1, (n_factors, n_metrics))
    bias = g.normal(0, 0.5, n_metrics)

    def sample(n, rng):
        f = rng.normal(0, 1, (n, n_factors))
        x = np.tanh(f @ A + bias) + 0.5 * np.sin(f @ B)
        return x + rng.normal(0, 0.05, x.shape)

    return sample


def inject_faults(x, rng):
    x = x.copy()
    n, d = x.shape
    kind = rng.integers(0, 3, n)
    for i in range(n):
        cols = rng.choice(d, size=rng.integers(3, 7), replace=False)
        if kind[i] == 0:      # metrics decoupled: values taken from another moment
            x[i, cols] = x[rng.integers(n), cols]
        elif kind[i] == 1:    # stuck sensors at a plausible value
            x[i, cols] = rng.uniform(-0.5, 0.5, len(cols))
        else:                 # a subsystem drifts
            x[i, cols] += rng.choice([-1, 1]) * rng.uniform(0.4, 0.8)
    return x


def auroc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    return (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


# ---------------------------------------------------------------------------- model
class TelemetryAE(nn.Module):
    def __init__(self, d, hidden, k):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                     nn.Linear(hidden, k))
        self.decoder = nn.Sequential(nn.Linear(k, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                     nn.Linear(hidden, d))

    def forward(self, x):
        return self.decoder(self.encoder(x))

    def score(self, x):
        return (self(x) - x).pow(2).mean(1)


# ----------------------------------------------------------------------------- main
def main(cfg=CONFIG):
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)
    rng = np.random.default_rng(cfg["seed"])
    sample = make_generator(cfg["n_metrics"], cfg["n_factors"], seed=99)
    x_train = sample(cfg["n_train"], rng)
    x_norm = sample(cfg["n_test_normal"], rng)
    x_anom = inject_faults(sample(cfg["n_test_anomalous"], rng), rng)
    mu, sd = x_train.mean(0), x_train.std(0)
    to_t = lambda a: torch.tensor((a - mu) / sd, dtype=torch.float32)
    x_train, x_test = to_t(x_train), to_t(np.concatenate([x_norm, x_anom]))
    y_test = np.r_[np.zeros(len(x_norm)), np.ones(len(x_anom))]

    model = TelemetryAE(cfg["n_metrics"], cfg["hidden"], cfg["bottleneck"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, cfg["epochs"])

    model.encoder.requires_grad_(False)          # decoder warm-up phase
    g = torch.Generator().manual_seed(cfg["seed"])
    t0 = time.time()
    for epoch in range(cfg["epochs"]):
        if epoch == cfg["decoder_warmup_epochs"]:
            model.decoder.requires_grad_(True)
        model.train()
        perm = torch.randperm(len(x_train), generator=g)
        tot = 0.0
        for s in range(0, len(perm), cfg["batch_size"]):
            xb = x_train[perm[s:s + cfg["batch_size"]]]
            loss = nn.functional.mse_loss(model(xb), xb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        sched.step()
        if (epoch + 1) % 5 == 0:
            model.eval()
            with torch.no_grad():
                a = auroc(model.score(x_test).numpy(), y_test)
            print(f"epoch {epoch + 1:3d} recon_mse {tot / len(x_train):.5f} test_auroc {a:.4f} [{time.time() - t0:.1f}s]")

    model.eval()
    with torch.no_grad():
        s = model.score(x_test).numpy()
    print(f"normal_score_median={np.median(s[y_test == 0]):.5f} anomaly_score_median={np.median(s[y_test == 1]):.5f}")
    print(f"test_auroc={auroc(s, y_test):.4f}")


if __name__ == "__main__":
    main()
