import numpy as np
import torch
import torch.nn as nn

SEED = 6
N_STATIONS = 30


def build_graph(rng):
    A = np.zeros((N_STATIONS, N_STATIONS), np.float32)
    for i in range(1, N_STATIONS):
        j = rng.integers(0, i)
        A[i, j] = A[j, i] = 1
    A += np.eye(N_STATIONS, dtype=np.float32)
    return torch.tensor(A / A.sum(1, keepdims=True))


def snapshots(n, P, rng):
    capacity = rng.uniform(0.5, 2.0, N_STATIONS)
    X, Y = [], []
    for _ in range(n):
        arrivals = rng.gamma(2.0, 1.0, N_STATIONS)
        snow = rng.uniform(0, 1)
        upstream = P.numpy() @ arrivals
        q = 4 * upstream / capacity + 3 * snow + rng.normal(0, 0.3, N_STATIONS)
        X.append(np.stack([arrivals, np.full(N_STATIONS, snow), capacity], 1))
        Y.append(q)
    return torch.tensor(np.array(X), dtype=torch.float32), torch.tensor(np.array(Y), dtype=torch.float32)


class StationGNN(nn.Module):
    def __init__(self, P, d_in=3, emb=4, hidden=32):
        super().__init__()
        self.P = P
        self.station_emb = nn.Embedding(N_STATIONS, emb)
        self.lin1 = nn.Linear(d_in + emb, hidden)
        self.lin2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):  # x: (B, N, F)
        e = self.station_emb.weight.expand(x.size(0), -1, -1)
        h = torch.relu(self.P @ self.lin1(torch.cat([x, e], -1)))
        h = torch.relu(self.P @ self.lin2(h))
        return self.out(h).squeeze(-1)


def pretrain_embeddings(model, steps=100):
    """Smoothness pretext: each station embedding should predict its neighbourhood mean."""
    opt = torch.optim.Adam(model.station_emb.parameters(), lr=1e-2)
    for _ in range(steps):
        e = model.station_emb.weight
        target = (model.P @ e).detach()  # stop-gradient target
        loss = ((e - target) ** 2).mean() + 0.01 * (1 - e.var(0)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def main():
    rng = np.random.default_rng(SEED)
    torch.manual_seed(SEED)
    P = build_graph(rng)
    Xtr, Ytr = snapshots(1500, P, rng)
    Xva, Yva = snapshots(300, P, rng)
    model = StationGNN(P)
    pretrain_embeddings(model)
    model.station_emb.requires_grad_(False)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-3)
    for ep in range(25):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(Xtr), 50):
            idx = perm[i:i + 50]
            loss = nn.functional.mse_loss(model(Xtr[idx]), Ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            mae = (model(Xva) - Yva).abs().mean().item()
        if ep % 5 == 4:
            print(f"epoch {ep+1} train_mse {loss.item():.3f} val_mae {mae:.3f}")
    print(f"val_mae_min={mae:.4f}")


if __name__ == "__main__":
    main()
