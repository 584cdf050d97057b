import argparse
import time
from dataclasses import dataclass, fields

import torch
from bpr import BPRMF, TripletSampler
from data import leave_last_out, sample_eval_negatives, simulate_log


@dataclass
class Config:
    seed: int = 3
    n_users: int = 600
    n_items: int = 500
    per_user: int = 25
    latent_dim: int = 8
    emb_dim: int = 32
    batch_size: int = 1024
    lr: float = 0.02
    reg: float = 1e-4
    epochs: int = 15
    topk: int = 10
    eval_negatives: int = 99


def parse() -> Config:
    ap = argparse.ArgumentParser()
    for f in fields(Config):
        ap.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)
    return Config(**vars(ap.parse_args()))


@torch.no_grad()
def evaluate(model, users, pos, negs, k):
    cand = torch.cat([pos[:, None], negs], dim=1)            # held-out item in column 0
    scores = model.score(users[:, None].expand_as(cand), cand)
    rank = (scores[:, 1:] > scores[:, :1]).sum(1)            # 0 = best
    hit = (rank < k).float()
    ndcg = torch.where(rank < k, 1.0 / torch.log2(rank.float() + 2.0), torch.zeros_like(hit))
    return hit.mean().item(), ndcg.mean().item()


def main():
    cfg = parse()
    torch.manual_seed(cfg.seed)
    log = simulate_log(cfg.n_users, cfg.n_items, cfg.per_user, cfg.latent_dim, cfg.seed)
    train_rows, test_rows = leave_last_out(log)
    negs = sample_eval_negatives(log, test_rows, cfg.eval_negatives, cfg.seed + 1)
    print(f"interactions={len(log.user)} train={len(train_rows)} test={len(test_rows)}")

    sampler = TripletSampler(log.user[train_rows], log.item[train_rows], log.n_items, cfg.batch_size, cfg.seed)
    model = BPRMF(log.n_users, log.n_items, cfg.emb_dim)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    te_u = torch.as_tensor(log.user[test_rows])
    te_i = torch.as_tensor(log.item[test_rows])
    te_n = torch.as_tensor(negs)
    t0 = time.time()
    for epoch in range(1, cfg.epochs + 1):
        model.train()
        total = 0.0
        for u, p, n in sampler:
            loss = model.bpr_loss(u, p, n, cfg.reg)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        if epoch % 5 == 0 or epoch == cfg.epochs:
            hr, nd = evaluate(model, te_u, te_i, te_n, cfg.topk)
            print(f"epoch {epoch:3d} bpr={total / len(sampler):.4f} HR@{cfg.topk}={hr:.4f} "
                  f"NDCG@{cfg.topk}={nd:.4f} [{time.time() - t0:.1f}s]")
    hr, nd = evaluate(model, te_u, te_i, te_n, cfg.topk)
    print(f"HR@{cfg.topk}={hr:.4f} NDCG@{cfg.topk}={nd:.4f}")


if __name__ == "__main__":
    main()
