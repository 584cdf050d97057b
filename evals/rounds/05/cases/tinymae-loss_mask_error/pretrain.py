import argparse
import json

import torch

from mae import TinyMAE, masked_mse, random_masking
from tiles import make_tiles, patchify


@torch.no_grad()
def held_out_error(model, patches, ratio, seed):
    model.eval()
    g = torch.Generator().manual_seed(seed)
    visible = random_masking(len(patches), patches.shape[1], ratio, generator=g)
    pred = model(patches, visible)
    err = ((pred - patches) ** 2).mean(-1)[~visible].mean().item()
    model.train()
    return err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="mae.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    p = cfg["patch"]
    train = patchify(make_tiles(cfg["n_train"], cfg["img"], cfg["seed"]), p)
    val = patchify(make_tiles(cfg["n_val"], cfg["img"], cfg["seed"] + 99), p)
    n_patches = train.shape[1]

    model = TinyMAE(n_patches, p * p, cfg["dim"], cfg["depth"], cfg["heads"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.05)
    gen = torch.Generator().manual_seed(cfg["seed"])

    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(train), generator=gen)
        for i in range(0, len(perm), cfg["batch_size"]):
            x = train[perm[i:i + cfg["batch_size"]]]
            visible = random_masking(len(x), n_patches, cfg["mask_ratio"], generator=gen)
            pred = model(x, visible)
            loss = masked_mse(pred, x, visible)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_masked_mse {held_out_error(model, val, cfg['mask_ratio'], 1):.4f}")

    print(f"val_masked_mse={held_out_error(model, val, cfg['mask_ratio'], 1):.4f}")


if __name__ == "__main__":
    main()
