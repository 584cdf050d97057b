import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from simulate import N_DISTRICTS, simulate_requests


class SurgeNet(nn.Module):
    def __init__(self, n_feats, n_districts=N_DISTRICTS, d_emb=8, h_emb=8, hidden=64):
        super().__init__()
        self.district = nn.Embedding(n_districts, d_emb)
        self.hour_of_week = nn.Embedding(168, h_emb)
        self.mlp = nn.Sequential(nn.Linear(n_feats + d_emb + h_emb, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, district, how, feats):
        z = torch.cat([self.district(district), self.hour_of_week(how), feats], dim=1)
        return 1.0 + self.mlp(z).squeeze(1)


def to_tensors(*arrays):
    return [torch.from_numpy(np.asarray(a)) for a in arrays]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--lr-decay-epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train = TensorDataset(*to_tensors(*simulate_requests(12000, seed=args.seed + 1)))
    vd, vh, vf, vy = to_tensors(*simulate_requests(3000, seed=4711))
    loader = DataLoader(train, batch_size=args.batch_size, shuffle=True,
                        generator=torch.Generator().manual_seed(args.seed))

    model = SurgeNet(vf.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=args.lr_decay_epochs, gamma=0.5)
    loss_fn = nn.MSELoss()

    for epoch in range(args.epochs):
        model.train()
        for d, h, f, y in loader:
            loss = loss_fn(model(d, h, f), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            rmse = loss_fn(model(vd, vh, vf), vy).sqrt().item()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} lr {opt.param_groups[0]['lr']:.2e} val_rmse {rmse:.4f}")
    print(f"baseline (predict mean) rmse={vy.std().item():.4f}")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
