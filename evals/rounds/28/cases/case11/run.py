import argparse
from dataclasses import dataclass, fields

import torch
from torch import nn
from torch.utils.data import DataLoader

from pools import PoolSurvey, survey


@dataclass
class Config:
    n_pools: int = 2500
    hidden: int = 64
    epochs: int = 60
    batch_size: int = 128
    lr: float = 2e-3
    seed: int = 0


class CountNet(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.head(self.trunk(x))


def log_count_loss(pred_log, counts):
    """Squared error in log1p space (robust to the few huge pools)."""
    return ((pred_log - torch.log1p(counts)) ** 2).mean()


def r2(pred, target):
    return 1 - ((pred - target) ** 2).sum() / ((target - target.mean()) ** 2).sum()


def parse():
    cfg = Config()
    ap = argparse.ArgumentParser()
    for f in fields(Config):
        ap.add_argument("--" + f.name.replace("_", "-"), type=f.type, default=getattr(cfg, f.name))
    return Config(**vars(ap.parse_args()))


def main():
    cfg = parse()
    torch.manual_seed(cfg.seed)
    X, counts = survey(cfg.n_pools, seed=cfg.seed)
    n_val = cfg.n_pools // 5
    train = PoolSurvey(X[n_val:], counts[n_val:])
    val = PoolSurvey(X[:n_val], counts[:n_val])
    loader = DataLoader(train, batch_size=cfg.batch_size, shuffle=True)

    model = CountNet(X.shape[1], cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        model.train()
        tot = 0.0
        for xb, cb in loader:
            loss = log_count_loss(model(xb), cb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(cb)
        if epoch % 15 == 14:
            model.eval()
            with torch.no_grad():
                score = r2(model(val.X).squeeze(1), torch.log1p(val.counts)).item()
            print(f"epoch {epoch + 1} train_loss={tot / len(train):.4f} val_r2_log={score:.4f}")

    model.eval()
    with torch.no_grad():
        score = r2(model(val.X).squeeze(1), torch.log1p(val.counts)).item()
    print(f"val_r2_log={score:.4f}")


if __name__ == "__main__":
    main()
