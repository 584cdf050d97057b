import argparse

import torch

from losses import masked_bce
from tiles import make_tiles
from unet import TinyUNet


def iou(logits, kelp, cloud):
    clear = ~cloud
    pred = (logits > 0) & clear
    truth = (kelp > 0.5) & clear
    inter = (pred & truth).sum().item()
    union = (pred | truth).sum().item()
    return inter / max(union, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--n-train", type=int, default=800)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    bands, kelp, cloud = [torch.from_numpy(a) for a in make_tiles(args.n_train, seed=args.seed + 5)]
    vb, vk, vc = [torch.from_numpy(a) for a in make_tiles(200, seed=31337)]
    print(f"kelp fraction {kelp.mean():.3f}, cloud fraction {cloud.float().mean():.3f}")

    model = TinyUNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(bands))
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            logits = model(bands[b])
            loss = masked_bce(logits, kelp[b], cloud[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            score = iou(model(vb), vk, vc)
        model.train()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_iou {score:.4f}")
    print(f"val_kelp_iou={score:.4f}")


if __name__ == "__main__":
    main()
