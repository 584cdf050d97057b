import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from cells import BONDS, random_cells


class MessageLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.self_lin = nn.Linear(dim, dim)
        self.msg = nn.ModuleList([nn.Linear(dim, dim) for _ in BONDS])
        # per-bond-type gates start at zero: the layer begins as an
        # atom-wise MLP and learns how much to listen to each shell
        self.gates = {b: nn.Parameter(torch.zeros(1)) for b in BONDS}
        self.norm = nn.LayerNorm(dim)

    def forward(self, h, adj):
        out = self.self_lin(h)
        for k, b in enumerate(BONDS):
            out = out + self.gates[b] * torch.bmm(adj[:, k], self.msg[k](h))
        return self.norm(h + torch.relu(out))


class CellMPNN(nn.Module):
    def __init__(self, n_feat, hidden, rounds):
        super().__init__()
        self.embed = nn.Linear(n_feat, hidden)
        self.layers = nn.ModuleList([MessageLayer(hidden) for _ in range(rounds)])
        self.readout = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, feats, adj):
        h = self.embed(feats)
        for layer in self.layers:
            h = layer(h, adj)
        return self.readout(h).sum(1).squeeze(-1)   # extensive: sum over atoms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="mpnn.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    feats, adj, energy = random_cells(cfg["n_cells"], cfg["n_atoms"], cfg["seed"])
    feats, adj = torch.from_numpy(feats), torch.from_numpy(adj)
    e_mu, e_sd = float(energy.mean()), float(energy.std())
    y = torch.from_numpy((energy - e_mu) / e_sd)
    n_val = cfg["n_cells"] // 5
    tr, va = slice(n_val, None), slice(0, n_val)

    model = CellMPNN(feats.shape[-1], cfg["hidden"], cfg["rounds"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    n_tr = cfg["n_cells"] - n_val
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(n_tr) + n_val
        for i in range(0, n_tr, cfg["batch_size"]):
            b = perm[i:i + cfg["batch_size"]]
            loss = nn.functional.mse_loss(model(feats[b], adj[b]), y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            mae = ((model(feats[va], adj[va]) - y[va]).abs().mean() * e_sd).item()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} mse={loss.item():.4f} val_mae={mae:.3f}")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
