import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from data import load_recordings, state_array, walker_array, windows_array


class IMUNet(nn.Module):
    def __init__(self, window, hidden):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(3, 32, 5, padding=2), nn.ReLU(),
                                  nn.AdaptiveAvgPool1d(4))
        self.mlp = nn.Sequential(nn.Linear(32 * 4, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    def forward(self, x):  # x: (B, T, 3)
        return self.mlp(self.conv(x.transpose(1, 2)).flatten(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    cfg = json.load(open(ap.parse_args().config))
    torch.manual_seed(cfg["seed"])
    recs = load_recordings(cfg["n_walkers"], cfg["windows_per_walker"], cfg["window"], cfg["seed"])
    X = torch.tensor(windows_array(recs))
    y = torch.tensor(state_array(recs))
    walkers = walker_array(recs)
    # hold out the last quarter of walkers
    cut = int(cfg["n_walkers"] * 0.75)
    tr = torch.tensor(np.where(walkers < cut)[0])
    va = torch.tensor(np.where(walkers >= cut)[0])
    model = IMUNet(cfg["window"], cfg["hidden"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    lossf = nn.CrossEntropyLoss()
    bs = cfg["batch_size"]
    for ep in range(cfg["epochs"]):
        model.train()
        perm = tr[torch.randperm(len(tr))]
        for i in range(0, len(perm), bs):
            idx = perm[i:i + bs]
            loss = lossf(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(X[va]).argmax(1) == y[va]).float().mean().item()
        print(f"epoch {ep:02d} loss {loss.item():.3f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
