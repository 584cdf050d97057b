import argparse
import dataclasses

import torch
from torch.utils.data import DataLoader, TensorDataset

from config import Config
from data import simulate, to_tensors
from engine import evaluate, train_one_epoch
from model import ClaimRate, poisson_deviance


def main():
    ap = argparse.ArgumentParser()
    for f in dataclasses.fields(Config):
        ap.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=f.default)
    cfg = Config(**vars(ap.parse_args()))
    torch.manual_seed(cfg.seed)

    x, y, expo = simulate(cfg.n_blocks)
    n_val = int(cfg.n_blocks * cfg.val_fraction)
    xt, yt, ot = to_tensors(x, y, expo)
    xtr, ytr, otr = xt[n_val:], yt[n_val:], ot[n_val:]
    xva, yva, ova = xt[:n_val], yt[:n_val], ot[:n_val]
    base = torch.log(ytr.sum() / otr.exp().sum()).item()

    loader = DataLoader(TensorDataset(xtr, ytr, otr), batch_size=cfg.batch_size, shuffle=True)
    model = ClaimRate(x.shape[1], cfg.hidden, init_log_rate=base)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=cfg.lr_step, gamma=cfg.lr_gamma)

    null = poisson_deviance(torch.full_like(yva, base) + ova, yva).item()
    for epoch in range(cfg.epochs):
        tr_loss = train_one_epoch(model, loader, opt, sched)
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1:3d}  train_nll {tr_loss:.4f}  val_deviance {evaluate(model, xva, yva, ova):.4f}"
                  f"  lr {opt.param_groups[0]['lr']:.2e}")
    print(f"null deviance {null:.4f}")
    print(f"val_deviance={evaluate(model, xva, yva, ova):.4f}")


if __name__ == "__main__":
    main()
