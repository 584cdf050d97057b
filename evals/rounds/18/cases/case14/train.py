import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from races import N_COURSES, N_GROUPS, N_RUNNERS, N_SPLITS, season


class SplitModel(nn.Module):
    """Race-day context MLP plus a per-runner offset for every split.

    The offsets start at zero, so an unseen runner gets the pace the context implies.
    """

    def __init__(self, n_num=2, hidden=128):
        super().__init__()
        self.tables = {
            "course": nn.Embedding(N_COURSES, 4),
            "group": nn.Embedding(N_GROUPS, 4),
            "runner": nn.Embedding(N_RUNNERS, N_SPLITS),
        }
        nn.init.zeros_(self.tables["runner"].weight)
        self.mlp = nn.Sequential(nn.Linear(4 + 4 + n_num, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, N_SPLITS))

    def forward(self, ids, num):
        ctx = torch.cat([self.tables["course"](ids["course"]),
                         self.tables["group"](ids["group"]), num], dim=1)
        return self.mlp(ctx) + self.tables["runner"](ids["runner"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    runner, course, group, num, y = (torch.from_numpy(a) for a in season(12000))
    ids = {"runner": runner, "course": course, "group": group}
    n_val = 2000
    model = SplitModel()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(y) - n_val) + n_val
        for i in range(0, len(perm), 128):
            b = perm[i:i + 128]
            pred = model({k: v[b] for k, v in ids.items()}, num[b])
            loss = F.mse_loss(pred, y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            va = torch.arange(n_val)
            mae_s = 100 * (model({k: v[va] for k, v in ids.items()}, num[va]) - y[va]).abs().mean().item()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} val_mae_s={mae_s:.2f}")
    print(f"val_mae_s={mae_s:.2f}")


if __name__ == "__main__":
    main()
