import argparse

import torch
import torch.nn.functional as F

from masknet import MaskNet
from mixtures import make_set


def sdr_db(estimate, reference, eps=1e-8):
    num = (reference ** 2).sum(dim=(-2, -1))
    den = ((reference - estimate) ** 2).sum(dim=(-2, -1))
    return 10 * torch.log10((num + eps) / (den + eps))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_mix, train_src = make_set(400, seed=args.seed)
    val_mix, val_src = make_set(120, seed=args.seed + 500)

    model = MaskNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        perm = torch.randperm(len(train_mix))
        total = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            est = model(train_mix[idx])
            loss = F.l1_loss(est, train_src[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch + 1}  l1 {total / len(perm):.4f}")

    model.eval()
    with torch.no_grad():
        est = model(val_mix)
        base = sdr_db(val_mix.unsqueeze(1).expand_as(val_src), val_src)
        sdri = (sdr_db(est, val_src) - base).mean().item()
    print(f"val_sdri_db={sdri:.3f}")


if __name__ == "__main__":
    main()
