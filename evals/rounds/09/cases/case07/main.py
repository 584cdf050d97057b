import argparse
import json
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import PointwiseNegatives, leave_last_out, simulate_logs, worker_init
from neumf import NeuMF


@torch.no_grad()
def evaluate(model, train_sets, test, n_items, k=10):
    model.eval()
    hits, ndcg = [], []
    all_items = torch.arange(n_items)
    for u, target in test.items():
        scores = model(torch.full((n_items,), u), all_items)
        seen = torch.tensor(sorted(train_sets[u]))
        scores[seen] = -float("inf")
        top = torch.topk(scores, k).indices.tolist()
        hit = target in top
        hits.append(hit)
        ndcg.append(1.0 / math.log2(top.index(target) + 2) if hit else 0.0)
    model.train()
    return float(np.mean(hits)), float(np.mean(ndcg))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed

    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])
    logs = simulate_logs(cfg, rng)
    train_sets, test = leave_last_out(logs)
    ds = PointwiseNegatives(train_sets, cfg["items"], cfg["negatives"])
    loader = DataLoader(ds, batch_size=cfg["batch_size"], shuffle=True,
                        num_workers=cfg["num_workers"], worker_init_fn=worker_init,
                        persistent_workers=cfg["num_workers"] > 0)

    model = NeuMF(cfg["users"], cfg["items"], cfg["emb_dim"], cfg["mlp_layers"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=cfg["lr_step_epochs"], gamma=cfg["lr_gamma"])

    for epoch in range(cfg["epochs"]):
        total, n = 0.0, 0
        for users, items, labels in loader:
            logits = model(users.flatten(), items.flatten())
            loss = F.binary_cross_entropy_with_logits(logits, labels.flatten())
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(users)
            n += len(users)
        if (epoch + 1) % 3 == 0:
            hr, nd = evaluate(model, train_sets, test, cfg["items"])
            print(f"epoch {epoch + 1:2d} bce {total / n:.4f} lr {opt.param_groups[0]['lr']:.2e} "
                  f"hr@10 {hr:.4f} ndcg@10 {nd:.4f}")

    hr, nd = evaluate(model, train_sets, test, cfg["items"])
    print(f"ndcg@10={nd:.4f}")
    print(f"hr@10={hr:.4f}")


if __name__ == "__main__":
    main()
