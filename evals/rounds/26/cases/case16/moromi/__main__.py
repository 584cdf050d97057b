import argparse
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from .metrics import grade_accuracy, mean_abs_grade_error
from .spectra import N_BANDS, N_GRADES, simulate


@dataclass
class Config:
    epochs: int = 30
    batch_size: int = 64
    lr: float = 1e-3
    n_train: int = 2500
    n_val: int = 700
    seed: int = 0


class SpectraSet(Dataset):
    def __init__(self, spec, grade):
        # standard normal variate per spectrum removes the scatter gain
        spec = (spec - spec.mean(1, keepdims=True)) / spec.std(1, keepdims=True)
        self.x = torch.from_numpy(spec)
        self.y = torch.from_numpy(grade).long().unsqueeze(1)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def make_model():
    return nn.Sequential(
        nn.Linear(N_BANDS, 64), nn.ReLU(), nn.Dropout(0.1),
        nn.Linear(64, 64), nn.ReLU(),
        nn.Linear(64, N_GRADES),
    )


def run(cfg):
    torch.manual_seed(cfg.seed)
    x, g = simulate(cfg.n_train + cfg.n_val, cfg.seed)
    train = SpectraSet(x[:cfg.n_train], g[:cfg.n_train])
    val = SpectraSet(x[cfg.n_train:], g[cfg.n_train:])
    tl = DataLoader(train, batch_size=cfg.batch_size, shuffle=True)
    vl = DataLoader(val, batch_size=cfg.batch_size)

    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    ce = nn.CrossEntropyLoss()
    for epoch in range(cfg.epochs):
        model.train()
        for xb, yb in tl:
            loss = ce(model(xb), yb.squeeze(1))
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        accs, maes, ws = [], [], []
        with torch.no_grad():
            for xb, yb in vl:
                out = model(xb)
                accs.append(grade_accuracy(out, yb))
                maes.append(mean_abs_grade_error(out, yb))
                ws.append(len(xb))
        acc = float(np.average(accs, weights=ws))
        mae = float(np.average(maes, weights=ws))
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} val_acc={acc:.3f} val_grade_mae={mae:.3f}")
    print(f"val_acc={acc:.4f}")


def main():
    ap = argparse.ArgumentParser()
    for name, default in vars(Config()).items():
        ap.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=default)
    run(Config(**vars(ap.parse_args())))


if __name__ == "__main__":
    main()
