import argparse
import json
import math

import torch
import torch.nn.functional as F

from srnet.model import ESPCN
from srnet.textures import procedural_textures, to_range


def psnr(pred, target, data_range):
    mse = F.mse_loss(pred, target).item()
    return 10 * math.log10(data_range ** 2 / mse)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    s = cfg["scale"]
    hr_tr = to_range(procedural_textures(cfg["n_train"], cfg["hr_size"], seed=100), cfg["pixel_range"])
    hr_va = to_range(procedural_textures(cfg["n_val"], cfg["hr_size"], seed=200), cfg["pixel_range"])
    lr_tr, lr_va = F.avg_pool2d(hr_tr, s), F.avg_pool2d(hr_va, s)
    data_range = float(hr_tr.max() - hr_tr.min())

    near = F.interpolate(lr_va, scale_factor=s, mode="nearest")
    print(f"nearest_psnr={psnr(near, hr_va, data_range):.2f}")

    model = ESPCN(s, cfg["channels"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for step in range(1, cfg["steps"] + 1):
        idx = torch.randint(0, cfg["n_train"], (cfg["batch_size"],))
        loss = F.mse_loss(model(lr_tr[idx]), hr_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(f"step {step} loss={loss.item():.5f}")

    model.eval()
    with torch.no_grad():
        val = psnr(model(lr_va), hr_va, data_range)
    print(f"val_psnr={val:.2f}")


if __name__ == "__main__":
    main()
