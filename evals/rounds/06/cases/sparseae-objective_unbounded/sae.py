"""Sparse autoencoder with a KL(rho || rho_hat) penalty on mean hidden activations."""
import argparse
import json

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_signals(n, dim, n_atoms, active, seed):
    g = torch.Generator().manual_seed(seed)
    atoms = F.normalize(torch.randn(n_atoms, dim, generator=torch.Generator().manual_seed(5)), dim=1)
    coef = torch.zeros(n, n_atoms)
    idx = torch.rand(n, n_atoms, generator=g).argsort(dim=1)[:, :active]
    coef.scatter_(1, idx, 0.5 + torch.rand(n, active, generator=g) * 1.5)
    x = coef @ atoms * 2.5 + 0.05 * torch.randn(n, dim, generator=g)
    return x


class SparseAE(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.enc = nn.Linear(dim, hidden)
        self.dec = nn.Linear(hidden, dim)

    def encode(self, x):
        return torch.sigmoid(self.enc(x))

    def forward(self, x):
        h = self.encode(x)
        return self.dec(h), h


def kl_sparsity(rho, rho_hat, eps=1e-6):
    rho_hat = rho_hat.clamp(eps, 1 - eps)
    return (rho * torch.log(rho_hat / rho) + (1 - rho) * torch.log((1 - rho_hat) / (1 - rho))).sum()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="sae.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    x_tr = make_signals(cfg["n_train"], cfg["dim"], cfg["n_atoms"], cfg["active"], seed=1)
    x_va = make_signals(cfg["n_val"], cfg["dim"], cfg["n_atoms"], cfg["active"], seed=2)
    model = SparseAE(cfg["dim"], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    var = x_va.var(dim=0).sum().item() / cfg["dim"]

    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(x_tr))
        for i in range(0, len(x_tr), cfg["batch_size"]):
            xb = x_tr[perm[i:i + cfg["batch_size"]]]
            recon, h = model(xb)
            mse = F.mse_loss(recon, xb)
            sparsity = kl_sparsity(cfg["rho"], h.mean(dim=0))
            loss = mse + cfg["beta"] * sparsity
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1}: loss={loss.item():.4f} mse={mse.item():.4f} "
                  f"kl={sparsity.item():.4f} mean_act={h.mean().item():.3f}")

    with torch.no_grad():
        recon, h = model(x_va)
        val_mse = F.mse_loss(recon, x_va).item() / var
    print(f"mean_activation={h.mean().item():.4f}")
    print(f"val_mse={val_mse:.4f}")


if __name__ == "__main__":
    main()
