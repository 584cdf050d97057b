import argparse
import json

import numpy as np
import torch

from data import item_table, simulate
from towers import TwoTower, in_batch_softmax_loss


@torch.no_grad()
def recall_at_k(model, user_x, item_x, train_pairs, test_pairs, k):
    model.eval()
    U = model.users(user_x)
    V = model.items(item_x)
    scores = U @ V.T
    # never recommend what the user already interacted with in training
    scores[train_pairs[:, 0], train_pairs[:, 1]] = float("-inf")
    topk = scores.topk(k, dim=1).indices
    hits = (topk[test_pairs[:, 0]] == test_pairs[:, 1:2]).any(dim=1).float()
    model.train()
    return hits.mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="settings.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    user_x, item_x, train_pairs, test_pairs = simulate(cfg)
    item_feats, log_q = item_table(item_x, train_pairs)
    user_x = torch.from_numpy(user_x)
    item_feats = torch.from_numpy(item_feats)
    log_q = torch.from_numpy(log_q)
    train_t = torch.from_numpy(train_pairs)
    test_t = torch.from_numpy(test_pairs)

    model = TwoTower(user_x.shape[1], item_feats.shape[1], cfg["hidden"], cfg["embed_dim"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    gen = torch.Generator().manual_seed(cfg["seed"])

    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(train_t), generator=gen)
        total = 0.0
        for start in range(0, len(perm), cfg["batch_size"]):
            batch = train_t[perm[start:start + cfg["batch_size"]]]
            users, items = batch[:, 0], batch[:, 1]
            u = model.users(user_x[users])
            v = model.items(item_feats[items])
            loss = in_batch_softmax_loss(u, v, log_q[items], cfg["temperature"], cfg["logq_correction"])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(batch)
        r = recall_at_k(model, user_x, item_feats, train_t, test_t, cfg["k"])
        print(f"epoch {epoch + 1}: loss {total / len(train_t):.4f}  recall@{cfg['k']} {r:.4f}")

    print(f"recall@{cfg['k']}={recall_at_k(model, user_x, item_feats, train_t, test_t, cfg['k']):.4f}")


if __name__ == "__main__":
    main()
