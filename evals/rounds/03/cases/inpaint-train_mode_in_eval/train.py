"""Train the hole-filling network with an L1 loss restricted to the hole."""
import argparse
import json

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from net import InpaintNet
from shapes import make_split


def masked_l1(pred, target, hole):
    return ((pred - target).abs() * hole).sum() / hole.sum().clamp_min(1.0)


def evaluate(model, images, holes):
    """Mean hole L1 per image. Runs image by image, like the full-resolution test script."""
    model.eval
    errors = []
    with torch.no_grad():
        for image, hole in zip(images, holes):
            pred = model(image[None], hole[None])
            errors.append(masked_l1(pred, image[None], hole[None]).item())
    return float(np.mean(errors))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None, help="overrides the config seed")
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed

    torch.manual_seed(cfg["seed"])
    tr_img, tr_hole = make_split(cfg["n_train"], seed=cfg["seed"])
    va_img, va_hole = make_split(cfg["n_val"], seed=12345)
    train_loader = DataLoader(TensorDataset(torch.from_numpy(tr_img), torch.from_numpy(tr_hole)),
                              batch_size=cfg["batch_size"], shuffle=True)
    va_img_t, va_hole_t = torch.from_numpy(va_img), torch.from_numpy(va_hole)

    model = InpaintNet(cfg["width"], cfg["dropout"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=cfg["epochs"])

    # a hole filled with the mean of the known pixels, for reference
    base = np.abs(va_img - (va_img * (1 - va_hole)).sum((2, 3), keepdims=True)
                  / (1 - va_hole).sum((2, 3), keepdims=True))
    print(f"mean-fill baseline hole_l1={np.mean((base * va_hole).sum((1, 2, 3)) / va_hole.sum((1, 2, 3))):.4f}")

    for epoch in range(cfg["epochs"]):
        model.train()
        losses = []
        for image, hole in train_loader:
            loss = masked_l1(model(image, hole), image, hole)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        sched.step()
        msg = f"epoch {epoch + 1}: train_l1 {np.mean(losses):.4f}"
        if (epoch + 1) % cfg["eval_every"] == 0:
            msg += f"  val_hole_l1 {evaluate(model, va_img_t, va_hole_t):.4f}"
        print(msg)

    print(f"val_hole_l1={evaluate(model, va_img_t, va_hole_t):.4f}")


if __name__ == "__main__":
    main()
