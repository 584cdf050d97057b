"""Train a class-conditional VAE on the sprite set.

    python -m cvae.train --epochs 15
"""
import argparse

import numpy as np
import torch

from .evaluate import negative_elbo
from .losses import vae_loss
from .model import CVAE
from .sprites import CLASS_NAMES, S, make_sprites


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--z-dim", type=int, default=8)
    ap.add_argument("--beta", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    x_tr, y_tr = map(torch.from_numpy, make_sprites(6000, seed=args.seed))
    x_va, y_va = map(torch.from_numpy, make_sprites(1000, seed=4242))

    model = CVAE(S * S, len(CLASS_NAMES), z_dim=args.z_dim)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    gen = torch.Generator().manual_seed(args.seed)

    for epoch in range(1, args.epochs + 1):
        perm = torch.randperm(len(x_tr), generator=gen)
        stats = []
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            logits, mu, logvar = model(x_tr[idx], y_tr[idx])
            loss, rec, kl = vae_loss(logits, x_tr[idx], mu, logvar, beta=args.beta)
            opt.zero_grad()
            loss.backward()
            opt.step()
            stats.append((loss.item(), rec.item(), kl.item()))
        loss_m, rec_m, kl_m = np.mean(stats, axis=0)
        val_nelbo, val_kl = negative_elbo(model, x_va, y_va)
        print(f"epoch {epoch:2d}  loss {loss_m:8.2f}  rec {rec_m:7.2f}  kl {kl_m:7.2f}  "
              f"val -elbo {val_nelbo:7.2f} (kl {val_kl:.2f})")

    val_nelbo, _ = negative_elbo(model, x_va, y_va, n_samples=16)
    print(f"val_neg_elbo={val_nelbo:.3f}")


if __name__ == "__main__":
    main()
