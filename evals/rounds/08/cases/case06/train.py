import argparse
import json
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

import synth
from features import FrameDataset, collate_frames, global_stats


class FrameMLP(nn.Module):
    def __init__(self, n_in, n_out, hidden=128, dropout=0.1):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, n_out),
        )

    def forward(self, x):
        return self.net(x)


def run_epoch(model, loader, opt=None):
    train = opt is not None
    model.train(train)
    tot_loss, correct, n = 0.0, 0, 0
    crit = nn.CrossEntropyLoss()
    with torch.set_grad_enabled(train):
        for x, y in loader:
            logits = model(x)
            loss = crit(logits, y)
            if train:
                opt.zero_grad()
                loss.backward()
                opt.step()
            tot_loss += loss.item() * len(y)
            correct += (logits.argmax(1) == y).sum().item()
            n += len(y)
    return tot_loss / n, correct / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    np.random.seed(seed)

    train_utts, val_utts = synth.build(cfg)
    feat_cfg = cfg["features"]
    # validation reuses the training-set statistics so nothing is estimated on held-out data
    train_stats = global_stats(train_utts)
    train_ds = FrameDataset(train_utts, feat_cfg["splice"], feat_cfg["cmvn"])
    val_ds = FrameDataset(val_utts, feat_cfg["splice"], feat_cfg["cmvn"], stats=train_stats)

    nw = cfg["loader"]["num_workers"]
    g = torch.Generator().manual_seed(seed)
    train_dl = DataLoader(train_ds, batch_size=cfg["optim"]["batch_utts"], shuffle=True,
                          collate_fn=collate_frames, num_workers=nw, generator=g,
                          persistent_workers=nw > 0)
    val_dl = DataLoader(val_ds, batch_size=16, shuffle=False, collate_fn=collate_frames,
                        num_workers=nw, persistent_workers=nw > 0)

    n_in = cfg["n_ceps"] * (2 * feat_cfg["splice"] + 1)
    model = FrameMLP(n_in, cfg["n_phones"], **cfg["model"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["optim"]["lr"])

    for epoch in range(1, cfg["optim"]["epochs"] + 1):
        t0 = time.time()
        tr_loss, tr_acc = run_epoch(model, train_dl, opt)
        va_loss, va_acc = run_epoch(model, val_dl)
        print(f"epoch {epoch:2d}  train_loss {tr_loss:.4f}  train_acc {tr_acc:.3f}  "
              f"val_loss {va_loss:.4f}  val_acc {va_acc:.3f}  ({time.time() - t0:.1f}s)")
    print(f"val_frame_acc={va_acc:.4f}")


if __name__ == "__main__":
    main()
