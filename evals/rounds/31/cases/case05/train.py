import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from settings import Settings


def synth(n, cfg, rng):
    sugar = rng.uniform(0, 1, n)
    temp = rng.uniform(0, 1, n)
    butter = rng.uniform(0, 1, n)
    visc = 2.0 * sugar + 1.5 * temp ** 2 - butter + 0.5 * sugar * butter
    x = np.linspace(0, 1, cfg.curve_len)
    curves = np.exp(-np.outer(1.0 / (0.3 + visc - visc.min()), x)) + rng.normal(0, 0.05, (n, cfg.curve_len))
    grade = np.digitize(temp + 0.3 * sugar, [0.55, 0.95])
    feats = np.concatenate([curves, np.stack([sugar, temp, butter], 1)], 1).astype(np.float32)
    visc = (visc - 1.0) / 1.0
    return feats, grade.astype(np.int64), visc.astype(np.float32)


class Trunk(nn.Module):
    def __init__(self, d_in, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.grade = nn.Linear(hidden, 3)
        self.visc = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.body(x)
        return self.grade(h), self.visc(h)


def losses(grade_logits, visc_pred, grade, visc, cfg):
    l_grade = F.cross_entropy(grade_logits, grade)
    l_visc = F.mse_loss(visc_pred, visc.view(-1, 1).squeeze())
    return l_grade, cfg.visc_weight * l_visc


def main():
    cfg = Settings(seed=int(os.environ.get("SEED", Settings.seed)))
    rng = np.random.default_rng(cfg.seed)
    torch.manual_seed(cfg.seed)
    Xtr, gtr, vtr = map(torch.tensor, synth(cfg.n_train, cfg, rng))
    Xva, gva, vva = map(torch.tensor, synth(cfg.n_val, cfg, rng))
    model = Trunk(Xtr.shape[1], cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for ep in range(cfg.epochs):
        model.train()
        perm = torch.randperm(cfg.n_train)
        for i in range(0, cfg.n_train, cfg.batch_size):
            idx = perm[i:i + cfg.batch_size]
            gl, vp = model(Xtr[idx])
            lg, lv = losses(gl, vp, gtr[idx], vtr[idx], cfg)
            opt.zero_grad()
            (lg + lv).backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            gl, vp = model(Xva)
            acc = (gl.argmax(1) == gva).float().mean().item()
            r2 = 1 - ((vp.squeeze(1) - vva) ** 2).mean().item() / vva.var().item()
        if ep % 5 == 4:
            print(f"epoch {ep} grade_acc {acc:.3f} visc_r2 {r2:.3f}")
    print(f"grade_acc={acc:.4f}")
    print(f"visc_r2={r2:.4f}")


if __name__ == "__main__":
    main()
