import sys
import tomllib

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from bells import BellClips


class PitchNet(nn.Module):
    def __init__(self, n_bins, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(n_bins)
        self.mlp = nn.Sequential(
            nn.Linear(n_bins, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, spec):
        return self.mlp(self.norm(spec)).squeeze(-1)


def huber(pred, target, beta):
    diff = (pred - target).abs()
    return torch.where(diff < beta, 0.5 * diff ** 2 / beta, diff - 0.5 * beta).mean()


def main(path, seed=None):
    with open(path, "rb") as fh:
        cfg = tomllib.load(fh)
    dcfg, mcfg, tcfg = cfg["data"], cfg["model"], cfg["train"]
    if seed is not None:
        tcfg["seed"] = seed
    torch.manual_seed(tcfg["seed"])

    train_set = BellClips(dcfg["n_train"], dcfg, seed=11)
    val_set = BellClips(dcfg["n_val"], dcfg, seed=12)
    loader = DataLoader(train_set, batch_size=tcfg["batch_size"], shuffle=True)

    model = PitchNet(train_set.spec.shape[1], mcfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=tcfg["lr"])
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=tcfg["epochs"])

    for epoch in range(tcfg["epochs"]):
        model.train()
        tot, nb = 0.0, 0
        for spec, target in loader:
            loss = huber(model(spec), target, tcfg["huber_beta"])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
            nb += 1
        sched.step()
        mae = evaluate(model, val_set)
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1:3d} loss {tot / nb:.4f} val_mae_semitones {mae:.3f}")
    print(f"val_mae_semitones={evaluate(model, val_set):.4f}")


@torch.no_grad()
def evaluate(model, ds):
    model.eval()
    pred = model(ds.spec).numpy() * ds.half + ds.mid
    return float(np.abs(pred - ds.pitch).mean())


if __name__ == "__main__":
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else None
    main(sys.argv[1] if len(sys.argv) > 1 else "settings.toml", seed)
