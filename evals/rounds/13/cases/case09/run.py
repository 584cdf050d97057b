import sys
import tomllib

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from winedata import FEATURES, MAX_GRADE, MIN_GRADE, tasting_panel

N_LEVELS = MAX_GRADE - MIN_GRADE + 1


class OrderedLogit(nn.Module):
    def __init__(self, n_in, hidden, n_levels):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.first_cut = nn.Parameter(torch.tensor(-2.0))
        self.log_gaps = nn.Parameter(torch.zeros(n_levels - 2))

    def cutpoints(self):
        gaps = torch.exp(self.log_gaps)
        return torch.cat([self.first_cut.view(1), self.first_cut + torch.cumsum(gaps, 0)])

    def forward(self, x):
        s = self.score(x)                              # [B, 1]
        cdf = torch.sigmoid(self.cutpoints() - s)      # P(level <= k), [B, K-1]
        ones, zeros = torch.ones_like(s), torch.zeros_like(s)
        cdf = torch.cat([zeros, cdf, ones], 1)
        return (cdf[:, 1:] - cdf[:, :-1]).clamp(min=1e-7)   # level probabilities [B, K]

    @torch.no_grad()
    def predict_grade(self, x):
        return self(x).argmax(1) + MIN_GRADE


def main(path):
    with open(path, "rb") as f:
        cfg = tomllib.load(f)
    dcfg, mcfg, tcfg = cfg["data"], cfg["model"], cfg["train"]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else tcfg["seed"]
    torch.manual_seed(seed)

    x, grade = tasting_panel(dcfg["n_wines"], dcfg["seed"])
    level = grade - MIN_GRADE                          # 0..5 for the likelihood
    n_test = int(len(x) * dcfg["test_fraction"])
    mu, sd = x[n_test:].mean(0), x[n_test:].std(0)
    x = torch.from_numpy((x - mu) / sd)
    level = torch.from_numpy(level)
    xtr, ltr, xte, lte = x[n_test:], level[n_test:], x[:n_test], level[:n_test]
    print("grade counts (train):", np.bincount(ltr.numpy(), minlength=N_LEVELS))

    model = OrderedLogit(len(FEATURES), mcfg["hidden"], N_LEVELS)
    opt = torch.optim.Adam(model.parameters(), lr=tcfg["lr"])
    for epoch in range(tcfg["epochs"]):
        perm = torch.randperm(len(xtr))
        nll = 0.0
        for i in range(0, len(perm), tcfg["batch_size"]):
            idx = perm[i:i + tcfg["batch_size"]]
            loss = F.nll_loss(torch.log(model(xtr[idx])), ltr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            nll += loss.item() * len(idx)
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1:3d} nll {nll / len(xtr):.4f}")

    pred = model.predict_grade(xte)
    exact = (pred == lte).float().mean().item()
    within1 = ((pred - lte).abs() <= 1).float().mean().item()
    print(f"within_one={within1:.4f}")
    print(f"exact_acc={exact:.4f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "settings.toml")
