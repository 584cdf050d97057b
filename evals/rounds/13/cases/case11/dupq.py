import argparse
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from lexicon import FILLER, GROUPS, QWORDS, STOI, vector_table


def question(rng, topics):
    words = [rng.choice(QWORDS)]
    for g in topics:
        if rng.random() < 0.5:
            words.append(rng.choice(FILLER))
        words.append(rng.choice(GROUPS[g]))
    return words


def make_pairs(n, max_len, seed):
    rng = np.random.default_rng(seed)
    a_ids, b_ids, labels = [], [], []
    for _ in range(n):
        topics = list(rng.choice(len(GROUPS), size=rng.integers(2, 4), replace=False))
        dup = rng.random() < 0.5
        other = list(topics)
        if not dup:
            j = rng.integers(len(other))
            other[j] = rng.choice([g for g in range(len(GROUPS)) if g not in topics])
        if rng.random() < 0.3:
            other = other[::-1]   # paraphrases may reorder
        for words, store in ((question(rng, topics), a_ids), (question(rng, other), b_ids)):
            ids = [STOI[w] for w in words][:max_len]
            store.append(ids + [0] * (max_len - len(ids)))
        labels.append(float(dup))
    return torch.tensor(a_ids), torch.tensor(b_ids), torch.tensor(labels)


class SiameseGRU(nn.Module):
    def __init__(self, table, hidden):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(torch.from_numpy(table), freeze=True, padding_idx=0)
        self.gru = nn.GRU(table.shape[1], hidden, batch_first=True, bidirectional=True)
        self.head = nn.Sequential(nn.Linear(8 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def encode(self, ids):
        mask = (ids != 0).float().unsqueeze(-1)
        h, _ = self.gru(self.emb(ids))
        return (h * mask).sum(1) / mask.sum(1).clamp(min=1)

    def forward(self, a, b):
        u, v = self.encode(a), self.encode(b)
        return self.head(torch.cat([u, v, (u - v).abs(), u * v], -1)).squeeze(-1)


@torch.no_grad()
def f1_score(model, a, b, y, thr):
    model.eval()
    pred = (torch.sigmoid(model(a, b)) > thr).float()
    model.train()
    tp = (pred * y).sum().item()
    prec = tp / max(pred.sum().item(), 1)
    rec = tp / max(y.sum().item(), 1)
    return 2 * prec * rec / max(prec + rec, 1e-9)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    a, b, y = make_pairs(cfg["n_pairs"], cfg["max_len"], seed=99)
    n_val = int(len(y) * cfg["val_fraction"])
    model = SiameseGRU(vector_table(cfg["emb_dim"]), cfg["hidden"])
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(trainable, lr=cfg["lr"])
    print(f"trainable tensors: {len(trainable)} / {len(list(model.parameters()))}")

    n_tr = len(y) - n_val
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(n_tr) + n_val
        run = 0.0
        for i in range(0, n_tr, cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            logits = model(a[idx], b[idx])
            loss = F.binary_cross_entropy_with_logits(logits, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(idx)
        f1 = f1_score(model, a[:n_val], b[:n_val], y[:n_val], cfg["threshold"])
        print(f"epoch {epoch + 1} bce {run / n_tr:.4f} val_f1 {f1:.4f}")

    print(f"val_f1={f1_score(model, a[:n_val], b[:n_val], y[:n_val], cfg['threshold']):.4f}")


if __name__ == "__main__":
    main()
