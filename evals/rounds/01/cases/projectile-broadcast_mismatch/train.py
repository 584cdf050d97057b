"""Fit the ballistics surrogate."""
import argparse
import dataclasses
import time

import numpy as np
import torch
from torch.utils.data import DataLoader

from ballistics.config import Config
from ballistics.data import RangeDataset, Standardizer, load_or_simulate
from ballistics.losses import huber
from ballistics.model import RangeSurrogate


def parse_config():
    ap = argparse.ArgumentParser()
    for f in dataclasses.fields(Config):
        ap.add_argument(f"--{f.name}", type=type(f.default), default=f.default)
    return Config(**vars(ap.parse_args()))


class Trainer:
    def __init__(self, cfg, model, y_scaler):
        self.cfg = cfg
        self.model = model
        self.y_scaler = y_scaler
        self.opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=1e-5)
        self.sched = torch.optim.lr_scheduler.CosineAnnealingLR(self.opt, T_max=cfg.epochs)

    def train_epoch(self, loader):
        self.model.train()
        losses = []
        for xb, yb in loader:
            pred = self.model(xb)
            loss = huber(pred, yb, self.cfg.huber_delta)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            losses.append(loss.item())
        self.sched.step()
        return float(np.mean(losses))

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        preds, ys = [], []
        for xb, yb in loader:
            preds.append(self.model(xb).squeeze(-1))
            ys.append(yb)
        p = self.y_scaler.inverse(torch.cat(preds).numpy())
        y = self.y_scaler.inverse(torch.cat(ys).numpy())
        rmse = float(np.sqrt(np.mean((p - y) ** 2)))
        r2 = 1.0 - float(np.sum((p - y) ** 2) / np.sum((y - y.mean()) ** 2))
        return rmse, r2


def main():
    cfg = parse_config()
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)
    X, y = load_or_simulate(cfg.data_path, cfg.n_samples, cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    perm = rng.permutation(len(X))
    n_val, n_test = int(cfg.val_fraction * len(X)), int(cfg.test_fraction * len(X))
    te, va, tr = perm[:n_test], perm[n_test:n_test + n_val], perm[n_test + n_val:]

    xs, ys = Standardizer().fit(X[tr]), Standardizer().fit(y[tr])
    mk = lambda idx: RangeDataset(xs(X[idx]), ys(y[idx]))
    g = torch.Generator().manual_seed(cfg.seed)
    train_dl = DataLoader(mk(tr), batch_size=cfg.batch_size, shuffle=True, generator=g)
    val_dl = DataLoader(mk(va), batch_size=1024)
    test_dl = DataLoader(mk(te), batch_size=1024)
    print(f"train={len(tr)} val={len(va)} test={len(te)} range mean={y.mean():.1f}m std={y.std():.1f}m")

    trainer = Trainer(cfg, RangeSurrogate(X.shape[1], cfg.hidden, cfg.depth), ys)
    t0 = time.time()
    for epoch in range(1, cfg.epochs + 1):
        loss = trainer.train_epoch(train_dl)
        if epoch % 5 == 0:
            rmse, r2 = trainer.evaluate(val_dl)
            print(f"epoch {epoch:3d} loss {loss:.4f} val_rmse_m {rmse:.2f} val_r2 {r2:.4f} [{time.time() - t0:.1f}s]")
    rmse, r2 = trainer.evaluate(test_dl)
    print(f"test_rmse_m={rmse:.3f}")
    print(f"test_r2={r2:.4f}")


if __name__ == "__main__":
    main()
