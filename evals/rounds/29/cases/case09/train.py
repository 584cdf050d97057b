import argparse
import tomllib

import torch
import torch.nn as nn
import torch.nn.functional as F

from network import snapshots


class StationMixer(nn.Module):
    def __init__(self, adj, n_feat, hidden, rounds, dropout):
        super().__init__()
        with torch.no_grad():
            a = torch.as_tensor(adj) + torch.eye(adj.shape[0])
            d = a.sum(1).rsqrt()
            self.register_buffer("a_norm", d[:, None] * a * d[None, :])
        self.inp = nn.Linear(n_feat, hidden)
        self.mix = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(rounds))
        self.drop = nn.Dropout(dropout)
        self.out = nn.Linear(2 * hidden, 1)

    def forward(self, x):
        h0 = F.relu(self.inp(x))                         # (B, S, H)
        h = h0
        for lin in self.mix:
            h = F.relu(lin(self.a_norm @ self.drop(h))) + h
        return self.out(torch.cat([h, h0], -1)).squeeze(-1)


def validate(model, x, y, y_mu, y_sd):
    model.eval()
    with torch.no_grad():
        pred = model(x) * y_sd + y_mu
    return (pred.clamp(min=0) - y).abs().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    seed = cfg["data"]["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    x, y, adj = snapshots(cfg["data"]["n_snapshots"], seed)
    x, y = torch.from_numpy(x), torch.from_numpy(y)
    n_tr = int(0.8 * len(y))
    xtr, ytr, xva, yva = x[:n_tr], y[:n_tr], x[n_tr:], y[n_tr:]
    # target scaling from training snapshots only; plain constants, not part of the graph
    y_mu, y_sd = ytr.mean().detach(), ytr.std().detach()

    mc, tc = cfg["model"], cfg["train"]
    model = StationMixer(adj, x.shape[-1], mc["hidden"], mc["rounds"], mc["dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=tc["lr"], weight_decay=tc["weight_decay"])
    for epoch in range(tc["epochs"]):
        model.train()
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, tc["batch_size"]):
            j = perm[i:i + tc["batch_size"]]
            loss = F.mse_loss(model(xtr[j]), (ytr[j] - y_mu) / y_sd)
            opt.zero_grad()
            loss.backward()
            gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), tc["grad_clip"])
            opt.step()
        if epoch % 5 == 0:
            print(f"epoch {epoch:2d} loss {loss.item():.4f} grad_norm {gnorm.item():.2f} "
                  f"val_mae {validate(model, xva, yva, y_mu, y_sd):.3f}")
    base = (yva - ytr.mean()).abs().mean().item()
    print(f"constant-prediction mae {base:.3f}")
    print(f"val_mae_min={validate(model, xva, yva, y_mu, y_sd):.4f}")


if __name__ == "__main__":
    main()
