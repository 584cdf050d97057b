import argparse
import json
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from posedata import KEYPOINTS, PoseFrames


class HeatmapNet(nn.Module):
    def __init__(self, k, width):
        super().__init__()
        layers, c = [], 1
        for d in (1, 2, 4, 1):
            layers += [nn.Conv2d(c, width, 3, padding=d, dilation=d), nn.BatchNorm2d(width), nn.ReLU()]
            c = width
        self.features = nn.Sequential(*layers)
        self.head = nn.Conv2d(width, k, 1)

    def forward(self, x):
        return self.head(self.features(x))


def decode(heatmaps):
    """(B, K, H, W) -> integer (y, x) of the per-channel maximum, shape (B, K, 2)."""
    B, K, H, W = heatmaps.shape
    idx = heatmaps.flatten(2).argmax(-1)
    return torch.stack([idx // W, idx % W], dim=-1)


def pck(pred, gt, radius):
    d = (pred - gt).float().norm(dim=-1)
    return (d <= radius).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    train_ds = PoseFrames(cfg["n_train"], cfg["size"], cfg["sigma"], cfg["data_seed"])
    val_ds = PoseFrames(cfg["n_val"], cfg["size"], cfg["sigma"], cfg["data_seed"] + 1)
    train_dl = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=200)

    model = HeatmapNet(len(KEYPOINTS), cfg["width"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    crit = nn.MSELoss()
    t0 = time.time()
    for epoch in range(cfg["epochs"]):
        model.train()
        total = 0.0
        for img, hm, _ in train_dl:
            loss = crit(model(img), hm)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(img)
        model.eval()
        preds, gts = [], []
        with torch.no_grad():
            for img, _, xy in val_dl:
                preds.append(decode(model(img)))
                gts.append(xy)
        score = pck(torch.cat(preds), torch.cat(gts), cfg["pck_radius"])
        print(f"[{epoch + 1}/{cfg['epochs']}] mse {total / len(train_ds):.5f}  val pck {score:.3f}  {time.time() - t0:.0f}s")
    print(f"pck={score:.4f}")


if __name__ == "__main__":
    main()
