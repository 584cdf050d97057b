import argparse
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from data import simulate_sales


class CartModel(nn.Module):
    def __init__(self, n_stops, emb_dim, n_feat, hidden):
        super().__init__()
        self.stop_emb = nn.Embedding(n_stops, emb_dim)
        nn.init.normal_(self.stop_emb.weight, std=0.01)
        self.mlp = nn.Sequential(nn.Linear(emb_dim + n_feat, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def stop_vectors(self, stop_ids):
        # plain gather on the table; cheaper than nn.Embedding's sparse path on big fleets
        table = self.stop_emb.weight.data
        return table[stop_ids]

    def forward(self, stop_ids, feats):
        h = torch.cat([self.stop_vectors(stop_ids), feats], dim=-1)
        return self.mlp(h).squeeze(-1)


def featurize(raw):
    weekday, temp, rain = raw[:, 0].astype(np.int64), raw[:, 1], raw[:, 2]
    onehot = np.eye(7, dtype=np.float32)[weekday]
    return np.concatenate([onehot, ((temp - 12) / 6)[:, None], rain[:, None]], 1).astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="settings.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)

    stops, raw, sales = simulate_sales(cfg["n_stops"], cfg["n_days"], cfg["seed"])
    feats = featurize(raw)
    scale = sales.mean()
    stops, feats, y = torch.from_numpy(stops), torch.from_numpy(feats), torch.from_numpy(sales / scale)
    n_tr = int(0.8 * len(y))   # last 24 days held out
    model = CartModel(cfg["n_stops"], cfg["emb_dim"], feats.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(n_tr)
        for b in range(0, n_tr, cfg["batch_size"]):
            idx = perm[b:b + cfg["batch_size"]]
            loss = F.mse_loss(model(stops[idx], feats[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} train_mse {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        pred = model(stops[n_tr:], feats[n_tr:])
        mae = ((pred - y[n_tr:]).abs().mean() * scale).item()
    print(f"val_mae_waffles={mae:.3f}")


if __name__ == "__main__":
    main()
