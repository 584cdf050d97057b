import argparse
import numpy as np
import torch
import torch.nn as nn

N_ST = 12
EDGES = [(i, i + 1) for i in range(N_ST - 1)] + [(0, 6), (3, 9), (5, 11)]


def norm_adjacency():
    a = torch.eye(N_ST)
    for i, j in EDGES:
        a[i, j] = a[j, i] = 1.0
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


def snapshots(n, rng, A):
    x = rng.uniform(0, 1, size=(n, N_ST, 3)).astype(np.float32)
    load = x[..., 0] * 2.0 / (0.5 + x[..., 1])
    spill = np.einsum("ij,nj->ni", A.numpy(), load)
    y = 3.0 * load + 4.0 * spill + 2.0 * x[..., 2] * spill
    return torch.from_numpy(x), torch.from_numpy(y.astype(np.float32))


class StationGNN(nn.Module):
    def __init__(self, A, hops=2, d=32):
        super().__init__()
        self.register_buffer("A", A)
        self.inp = nn.Linear(3, d)
        self.hops = [nn.Linear(d, d) for _ in range(hops)]
        self.out = nn.Linear(d, 1)

    def forward(self, x):
        h = torch.relu(self.inp(x))
        for lin in self.hops:
            h = torch.relu(lin(self.A @ h)) + h
        return self.out(h).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hops", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    A = norm_adjacency()
    xtr, ytr = snapshots(2000, rng, A)
    xva, yva = snapshots(400, rng, A)
    model = StationGNN(A, args.hops)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for ep in range(args.epochs):
        perm = torch.randperm(len(xtr))
        for i in range(0, len(xtr), 64):
            b = perm[i:i + 64]
            loss = nn.functional.mse_loss(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 10 == 0:
            print(f"epoch {ep} mse {loss.item():.3f}")
    with torch.no_grad():
        mae = (model(xva) - yva).abs().mean().item()
    print(f"val_mae_minutes={mae:.3f}")


if __name__ == "__main__":
    main()
