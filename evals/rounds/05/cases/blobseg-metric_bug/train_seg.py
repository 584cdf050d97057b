import argparse

import torch

from losses_metrics import bce_dice, dice_coefficient
from shapes_data import make_images
from unet import SmallUNet


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--bs", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x_tr, m_tr = make_images(400, seed=args.seed)
    x_va, m_va = make_images(100, seed=args.seed + 1)
    net = SmallUNet()
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        net.train()
        perm = torch.randperm(len(x_tr))
        for i in range(0, len(perm), args.bs):
            idx = perm[i:i + args.bs]
            loss = bce_dice(net(x_tr[idx]), m_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        probs = net.predict(x_va)
        score = dice_coefficient(probs, m_va)
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_dice {score:.4f}")
    print(f"val_dice={score:.4f}")


if __name__ == "__main__":
    main()
