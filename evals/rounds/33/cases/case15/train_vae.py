import argparse

import torch

from traces import squeeze_traces
from vae import TraceVAE, kl_term, recon_term


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    x_tr, _ = squeeze_traces(4000, seed=21)
    x_va, _ = squeeze_traces(1000, seed=22)
    model = TraceVAE()
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    for ep in range(a.epochs):
        perm = torch.randperm(len(x_tr))
        for i in range(0, len(perm), 128):
            xb = x_tr[perm[i:i + 128]]
            x_hat, mu, logvar = model(xb)
            rec = recon_term(x_hat, xb)
            kl = kl_term(mu, logvar)
            loss = rec + a.beta * kl
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 5 == 4:
            print(f"epoch {ep + 1} recon={rec.item():.4f} kl={kl.item():.3f}")
    model.eval()
    with torch.no_grad():
        x_hat, _, _ = model(x_va)
        mse = torch.mean((x_hat - x_va) ** 2).item()
    print(f"val_sampled_recon_mse={mse:.5f}")


if __name__ == "__main__":
    main()
