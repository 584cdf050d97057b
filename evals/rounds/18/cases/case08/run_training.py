import argparse
import dataclasses

import numpy as np
import torch
import torch.nn.functional as F

from chewnet.config import TrainConfig
from chewnet.model import ChewCNN
from chewnet.scaling import SessionScaler
from chewnet.sessions import make_sessions


def parse_config():
    ap = argparse.ArgumentParser()
    for f in dataclasses.fields(TrainConfig):
        ap.add_argument(f"--{f.name.replace('_', '-')}", type=f.type, default=f.default)
    return TrainConfig(**vars(ap.parse_args()))


def f1_score(pred, y):
    tp = ((pred == 1) & (y == 1)).sum()
    fp = ((pred == 1) & (y == 0)).sum()
    fn = ((pred == 0) & (y == 1)).sum()
    return float(2 * tp / max(2 * tp + fp + fn, 1))


def main():
    cfg = parse_config()
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)

    xtr, ytr, str_ = make_sessions(cfg.train_sessions, cfg.windows_per_session, cfg.window, seed=100 + cfg.seed)
    xva, yva, sva = make_sessions(cfg.val_sessions, cfg.windows_per_session, cfg.window, seed=900)
    sva = sva + cfg.train_sessions  # validation sessions are different recordings

    scaler = SessionScaler().fit(xtr, str_)
    xtr = torch.from_numpy(scaler.transform(xtr, str_))
    xva = torch.from_numpy(scaler.transform(xva, sva))
    ytr, yva = torch.from_numpy(ytr), torch.from_numpy(yva)

    model = ChewCNN(cfg.channels)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        for i in range(0, len(perm), cfg.batch_size):
            b = perm[i:i + cfg.batch_size]
            loss = F.cross_entropy(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            pred = model(xva).argmax(1)
        f1 = f1_score(pred.numpy(), yva.numpy())
        print(f"epoch {epoch + 1} loss={loss.item():.4f} val_f1={f1:.4f}")
    print(f"val_f1={f1:.4f}")


if __name__ == "__main__":
    main()
