import argparse

import torch
import torch.nn as nn

from crystals import N_ELEMENTS, make_crystals


class GraphLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.self_lin, self.nbr_lin = nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, h, adj):
        return torch.relu(self.self_lin(h) + adj @ self.nbr_lin(h))


class CrystalNet(nn.Module):
    def __init__(self, d=48, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(N_ELEMENTS, d)
        self.layers = nn.ModuleList(GraphLayer(d) for _ in range(n_layers))
        self.readout = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 1))

    def forward(self, z, adj, mask):
        h = self.embed(z)
        for layer in self.layers:
            h = layer(h, adj)
        pooled = (h * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
        return self.readout(pooled).squeeze(-1)


def set_trainable(module, flag):
    for p in module.parameters():
        p.requires_grad_(flag)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    tr = make_crystals(4000, seed=1)
    va = make_crystals(1000, seed=2)

    model = CrystalNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    set_trainable(model.embed, False)
    set_trainable(model.layers, False)
    for epoch in range(args.epochs):
        if epoch == args.warmup:
            set_trainable(model.embed, True)
            set_trainable(model.readout, True)
        model.train()
        perm = torch.randperm(len(tr[3]))
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            loss = nn.functional.l1_loss(model(tr[0][idx], tr[1][idx], tr[2][idx]), tr[3][idx])
            opt.zero_grad(); loss.backward(); opt.step()
        model.eval()
        with torch.no_grad():
            mae = (model(*va[:3]) - va[3]).abs().mean().item()
        print(f"epoch {epoch + 1:2d} train_l1={loss.item():.4f} val_mae={mae:.4f}")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
