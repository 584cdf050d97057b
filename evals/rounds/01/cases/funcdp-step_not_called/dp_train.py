import argparse
import json
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

from dpsgd import clip_and_noise, make_per_example_grads, momentum_update
from lightcurves import normalise, simulate


class TransitNet(nn.Module):
    def __init__(self, length, hidden):
        super().__init__()
        self.conv = nn.Conv1d(1, 16, 7, padding=3)
        self.fc1 = nn.Linear(16 * (length // 4), hidden)
        self.fc2 = nn.Linear(hidden, 2)

    def forward(self, x):                       # x: (B, L)
        h = F.max_pool1d(torch.tanh(self.conv(x.unsqueeze(1))), 4)
        return self.fc2(torch.tanh(self.fc1(h.flatten(1))))


def accuracy(model, params, buffers, x, y):
    with torch.no_grad():
        logits = functional_call(model, (params, buffers), (x,))
    return (logits.argmax(1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="dp.json")
    cfg = json.load(open(ap.parse_args().config))
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)
    rng = np.random.default_rng(cfg["seed"])

    x, y = simulate(cfg["n_train"] + cfg["n_val"], cfg["length"], rng)
    x = torch.from_numpy(normalise(x))
    y = torch.from_numpy(y)
    x_tr, y_tr, x_va, y_va = x[:cfg["n_train"]], y[:cfg["n_train"]], x[cfg["n_train"]:], y[cfg["n_train"]:]

    model = TransitNet(cfg["length"], cfg["hidden"])
    params = {k: v.detach().clone() for k, v in model.named_parameters()}
    buffers = {k: v.detach().clone() for k, v in model.named_buffers()}
    velocity = {k: torch.zeros_like(v) for k, v in params.items()}
    per_example_grads = make_per_example_grads(model, F.cross_entropy)
    g = torch.Generator().manual_seed(cfg["seed"])

    print(f"train={len(x_tr)} val={len(x_va)} positives={y_tr.float().mean():.2f} "
          f"val_acc at init {accuracy(model, params, buffers, x_va, y_va):.4f}")
    t0 = time.time()
    for epoch in range(1, cfg["epochs"] + 1):
        perm = torch.randperm(len(x_tr), generator=g)
        losses = []
        for s in range(0, len(perm), cfg["batch_size"]):
            idx = perm[s:s + cfg["batch_size"]]
            xb, yb = x_tr[idx], y_tr[idx]
            grads = per_example_grads(params, buffers, xb, yb)
            grads = clip_and_noise(grads, cfg["clip_norm"], cfg["noise_multiplier"], g)
            params = momentum_update(params, grads, velocity, cfg["lr"], cfg["momentum"])
            with torch.no_grad():
                losses.append(F.cross_entropy(functional_call(model, (params, buffers), (xb,)), yb).item())
        print(f"epoch {epoch:2d} loss {np.mean(losses):.4f} val_acc {accuracy(model, params, buffers, x_va, y_va):.4f} "
              f"[{time.time() - t0:.1f}s]")
    print(f"val_acc={accuracy(model, params, buffers, x_va, y_va):.4f}")


if __name__ == "__main__":
    main()
