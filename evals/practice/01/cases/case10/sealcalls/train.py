import time

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from .config import from_cli
from .simulate import simulate_clips, CALL_TYPES
from .data import build_datasets, pad_collate
from .model import CallNet


def run_epoch(model, loader, opt=None):
    train = opt is not None
    model.train(train)
    tot, correct, n = 0.0, 0, 0
    with torch.set_grad_enabled(train):
        for x, lengths, y in loader:
            logits = model(x, lengths)
            loss = F.cross_entropy(logits, y)
            if train:
                opt.zero_grad()
                loss.backward()
                opt.step()
            tot += loss.item() * len(y)
            correct += (logits.argmax(1) == y).sum().item()
            n += len(y)
    return tot / n, correct / n


def main():
    cfg = from_cli()
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    clips, labels = simulate_clips(cfg, rng)
    train_ds, val_ds = build_datasets(cfg, clips, labels, rng)
    print(f"{len(train_ds)} train / {len(val_ds)} val clips after trimming; classes={CALL_TYPES}")

    g = torch.Generator().manual_seed(cfg.seed)
    train_dl = DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True, collate_fn=pad_collate,
                          num_workers=cfg.workers, generator=g, persistent_workers=cfg.workers > 0)
    val_dl = DataLoader(val_ds, batch_size=256, shuffle=False, collate_fn=pad_collate)

    model = CallNet(cfg.n_mels, len(CALL_TYPES))
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    t0 = time.time()
    for epoch in range(cfg.epochs):
        tl, ta = run_epoch(model, train_dl, opt)
        vl, va = run_epoch(model, val_dl)
        print(f"[{epoch + 1}/{cfg.epochs}] train loss {tl:.3f} acc {ta:.3f} | val loss {vl:.3f} acc {va:.3f}")
    print(f"elapsed {time.time() - t0:.1f}s")
    print(f"val_acc={va:.4f}")


if __name__ == "__main__":
    main()
