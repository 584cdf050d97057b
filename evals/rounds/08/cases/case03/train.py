import argparse
import copy
import os
import random

import numpy as np
import torch
import torch.nn as nn

from telemetry import simulate


class Forecaster(nn.Module):
    def __init__(self, n_ch=4, hidden=64):
        super().__init__()
        self.whiten = nn.Linear(n_ch, n_ch)
        self.whiten.requires_grad_(False)  # fixed PCA whitening, set once from data
        self.gru = nn.GRU(n_ch, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_ch)

    @torch.no_grad()
    def fit_whitening(self, x):
        flat = x.reshape(-1, x.shape[-1])
        mu = flat.mean(0)
        cov = torch.cov((flat - mu).T)
        evals, evecs = torch.linalg.eigh(cov)
        W = evecs @ torch.diag(evals.clamp_min(1e-6).rsqrt()) @ evecs.T
        self.whiten.weight.copy_(W)
        self.whiten.bias.copy_(-W @ mu)

    def forward(self, x, h=None):
        out, h = self.gru(self.whiten(x), h)
        return x + self.head(out), h  # predict the increment over the last value


class EMA:
    def __init__(self, model, decay=0.99):
        self.decay = decay
        self.shadow = copy.deepcopy(model)
        self.shadow.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p, alpha=1 - self.decay)


def rmse_over_stream(model, data, window=100):
    model.eval()
    h, se, n = None, 0.0, 0
    with torch.no_grad():
        for t in range(0, data.shape[1] - 1, window):
            x = data[:, t:t + window]
            y = data[:, t + 1:t + 1 + window]
            x = x[:, : y.shape[1]]
            pred, h = model(x, h)
            se += ((pred - y) ** 2).sum().item()
            n += y.numel()
    return (se / n) ** 0.5


def save_checkpoint(path, model, ema, opt, sched, epoch):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.save({
        "model": model.state_dict(),
        "ema": ema.shadow.state_dict(),
        "optimizer": opt.state_dict(),
        "scheduler": sched.state_dict(),
        "epoch": epoch,
        "torch_rng": torch.get_rng_state(),
        "py_rng": random.getstate(),
    }, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--stop-after", type=int, default=None, help="simulate preemption after this epoch")
    ap.add_argument("--resume", default=None)
    ap.add_argument("--ckpt", default="checkpoints/last.pt")
    ap.add_argument("--bptt", type=int, default=50)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    random.seed(args.seed)

    train = torch.from_numpy(simulate(16, 1500, seed=1))
    val = torch.from_numpy(simulate(8, 1000, seed=2))

    model = Forecaster()
    model.fit_whitening(train)
    ema = EMA(model)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    start_epoch = 1

    if args.resume:
        ckpt = torch.load(args.resume, weights_only=False)
        model.load_state_dict(ckpt["model"])
        ema.shadow.load_state_dict(ckpt["ema"])
        opt.load_state_dict(ckpt["optimizer"])
        sched.load_state_dict(ckpt["scheduler"])
        torch.set_rng_state(ckpt["torch_rng"])
        random.setstate(ckpt["py_rng"])
        start_epoch = ckpt["epoch"] + 1
        print(f"resumed from {args.resume} at epoch {start_epoch}, lr {sched.get_last_lr()[0]:.2e}")

    mse = nn.MSELoss()
    for epoch in range(start_epoch, args.epochs + 1):
        model.train()
        # each epoch starts at a random offset so window boundaries move
        off = random.randrange(args.bptt)
        h, tot, nb = None, 0.0, 0
        for t in range(off, train.shape[1] - args.bptt - 1, args.bptt):
            x = train[:, t:t + args.bptt]
            y = train[:, t + 1:t + 1 + args.bptt]
            if h is not None:
                h = h.detach()  # truncated BPTT: keep the state, drop the history
            pred, h = model(x, h)
            loss = mse(pred, y)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            ema.update(model)
            tot += loss.item()
            nb += 1
        sched.step()
        val_rmse = rmse_over_stream(ema.shadow, val)
        print(f"epoch {epoch:2d} train_mse {tot / nb:.5f} val_rmse(ema) {val_rmse:.5f}")
        save_checkpoint(args.ckpt, model, ema, opt, sched, epoch)
        if args.stop_after is not None and epoch >= args.stop_after:
            print(f"stopping after epoch {epoch} (checkpoint written to {args.ckpt})")
            return

    naive = ((val[:, 1:] - val[:, :-1]) ** 2).mean().sqrt().item()
    print(f"naive_last_value_rmse={naive:.5f}")
    print(f"val_rmse={rmse_over_stream(ema.shadow, val):.5f}")


if __name__ == "__main__":
    main()
