import argparse
import json
import math
import time

import torch
import torch.nn as nn

from flights import simulate, wrap


class AttitudeNet(nn.Module):
    def __init__(self, width=48):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(6, width, 5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2, stride=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2, stride=2), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(width * 13, 128), nn.ReLU(), nn.Linear(128, 6))

    def forward(self, x):
        return self.head(self.conv(x)).view(-1, 3, 2)     # (sin, cos) per angle


def to_circle(angles):
    return torch.stack([torch.sin(angles), torch.cos(angles)], -1)


def from_circle(sc):
    return torch.atan2(sc[..., 0], sc[..., 1])


def angle_error_deg(model, x, y):
    model.eval()
    with torch.no_grad():
        err = wrap(from_circle(model(x)) - y).abs().mean().item()
    model.train()
    return math.degrees(err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hparams", default="hparams.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    hp = json.load(open(a.hparams))
    if a.seed is not None:
        hp["seed"] = a.seed
    torch.manual_seed(hp["seed"])
    torch.set_num_threads(1)
    t0 = time.time()

    xtr, ytr = simulate(hp["n_train"], seed=1)
    xva, yva = simulate(hp["n_val"], seed=2)
    ttr = to_circle(ytr)

    model = AttitudeNet()
    opt = torch.optim.Adam(model.parameters(), lr=hp["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=hp["lr_step_epochs"], gamma=hp["lr_gamma"])
    mse = nn.MSELoss()

    for epoch in range(hp["epochs"]):
        perm = torch.randperm(len(ytr))
        for i in range(0, len(perm), hp["batch_size"]):
            idx = perm[i : i + hp["batch_size"]]
            loss = mse(model(xtr[idx]), ttr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        if epoch % 4 == 0 or epoch == hp["epochs"] - 1:
            print(f"epoch {epoch:2d} loss {loss.item():.4f} lr {opt.param_groups[0]['lr']:.2e} "
                  f"val_err {angle_error_deg(model, xva, yva):.2f} deg")

    print(f"{time.time() - t0:.1f}s")
    print(f"val_angle_err_deg={angle_error_deg(model, xva, yva):.3f}")


if __name__ == "__main__":
    main()
