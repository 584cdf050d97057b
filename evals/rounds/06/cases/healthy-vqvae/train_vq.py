import argparse

import torch
import torch.nn.functional as F

from profiles import stroke_profiles
from vqvae import VQVAE


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x_tr = stroke_profiles(3000, seed=1)
    x_va = stroke_profiles(500, seed=2)
    mean, std = x_tr.mean(), x_tr.std()
    x_tr, x_va = (x_tr - mean) / std, (x_va - mean) / std

    model = VQVAE()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(1, args.epochs + 1):
        perm = torch.randperm(len(x_tr))
        rec_sum, n = 0.0, 0
        for i in range(0, len(x_tr), args.batch_size):
            xb = x_tr[perm[i:i + args.batch_size]]
            recon, vq_loss, ppl = model(xb)
            rec = F.mse_loss(recon, xb)
            loss = rec + vq_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            rec_sum += rec.item() * len(xb)
            n += len(xb)
        if epoch % 5 == 0:
            print(f"epoch {epoch}: recon={rec_sum / n:.4f} code_perplexity={ppl:.1f}")

    model.eval()
    with torch.no_grad():
        recon, _, ppl = model(x_va)
        val = F.mse_loss(recon, x_va).item() / x_va.var().item()
    print(f"val_code_perplexity={ppl:.1f}")
    print(f"val_mse={val:.4f}")


if __name__ == "__main__":
    main()
