import argparse
import copy

import torch
from ltr.data import QueryGroups, collate_queries, make_queries
from ltr.losses import pairwise_margin_loss
from ltr.metrics import ndcg_at_k
from ltr.model import Scorer
from settings import DEFAULTS
from torch.utils.data import DataLoader


def evaluate(model, loader):
    model.eval()
    vals, weights = [], []
    with torch.no_grad():
        for feats, rels, pad_mask in loader:
            vals.append(ndcg_at_k(model(feats), rels, pad_mask))
            weights.append(len(rels))
    model.train()
    return sum(v * w for v, w in zip(vals, weights)) / sum(weights)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int)
    ap.add_argument("--epochs", type=int)
    cli = ap.parse_args()
    cfg = copy.copy(DEFAULTS)
    for k, v in vars(cli).items():
        if v is not None:
            setattr(cfg, k, v)

    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)
    train_q = make_queries(cfg.n_train_queries, cfg.n_features, cfg.min_docs, cfg.max_docs, seed=cfg.seed)
    val_q = make_queries(cfg.n_val_queries, cfg.n_features, cfg.min_docs, cfg.max_docs, seed=cfg.seed + 999)
    train_dl = DataLoader(QueryGroups(train_q), batch_size=cfg.queries_per_batch, shuffle=True,
                          collate_fn=collate_queries)
    val_dl = DataLoader(QueryGroups(val_q), batch_size=64, collate_fn=collate_queries)

    model = Scorer(cfg.n_features, cfg.hidden)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    print(f"epoch 0: val_ndcg10={evaluate(model, val_dl):.4f}")

    for epoch in range(1, cfg.epochs + 1):
        total = 0.0
        for feats, rels, pad_mask in train_dl:
            scores = model(feats)
            loss = pairwise_margin_loss(scores, rels, pad_mask, cfg.margin)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        if epoch % 2 == 0:
            print(f"epoch {epoch}: pair_loss={total / len(train_dl):.4f} val_ndcg10={evaluate(model, val_dl):.4f}")

    print(f"METRIC val_ndcg10={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
