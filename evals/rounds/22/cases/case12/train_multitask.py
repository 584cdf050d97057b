import argparse
import json
from collections import defaultdict

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from imu_sim import simulate


class SlalomNet(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(4, ch, 5, padding=2), nn.GELU(),
            nn.Conv1d(ch, ch, 5, padding=2, stride=2), nn.GELU(),
            nn.Conv1d(ch, ch, 5, padding=2, stride=2), nn.GELU(),
        )
        self.touch_head = nn.Sequential(nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(ch, 1))
        self.split_head = nn.Sequential(nn.Flatten(), nn.Linear(ch * 16, 64), nn.GELU(), nn.Linear(64, 1))

    def forward(self, x):
        h = self.encoder(x)
        return self.touch_head(h).squeeze(1), self.split_head(h).squeeze(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cfg", default="cfg.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.cfg))
    torch.manual_seed(cfg["seed"] if args.seed is None else args.seed)

    xtr, str_, ttr = map(torch.from_numpy, simulate(cfg["n_train"], seed=3))
    xva, sva, tva = map(torch.from_numpy, simulate(cfg["n_val"], seed=4))
    s_mu, s_sd = str_.mean(), str_.std()

    model = SlalomNet(cfg["encoder_channels"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    w = cfg["loss_weights"]
    bs = cfg["batch_size"]

    for epoch in range(cfg["epochs"]):
        model.train()
        logs = defaultdict(float)
        perm = torch.randperm(len(xtr))
        for s in range(0, len(xtr), bs):
            idx = perm[s:s + bs]
            touch_logit, split_pred = model(xtr[idx])
            losses = {
                "touch": F.binary_cross_entropy_with_logits(touch_logit, ttr[idx]),
                "split": F.huber_loss(split_pred, (str_[idx] - s_mu) / s_sd),
            }
            for k, v in losses.items():
                logs[k] = v.item()
            loss = w["touch"] * losses["touch"] + w["split"] * logs["split"]
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            tl, sp = model(xva)
            acc = ((tl > 0).float() == tva).float().mean().item()
            mae = ((sp * s_sd + s_mu) - sva).abs().mean().item()
        print(f"epoch {epoch + 1:2d}  touch {logs['touch']:.3f}  split {logs['split']:.3f}  "
              f"val_touch_acc {acc:.3f}  val_split_mae_s {mae:.3f}")
    print(f"val_split_mae_s={mae:.4f}")


if __name__ == "__main__":
    main()
