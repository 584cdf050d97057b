import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from clicks import PAD, pad_batch, simulate_sessions


class GRU4Rec(nn.Module):
    def __init__(self, n_items, emb=64, hidden=96):
        super().__init__()
        self.item_emb = nn.Embedding(n_items + 1, emb, padding_idx=PAD)
        self.gru = nn.GRU(emb, hidden)  # time-major
        self.out = nn.Linear(hidden, n_items + 1)

    def forward(self, x_tb):
        h, _ = self.gru(self.item_emb(x_tb))
        return self.out(h)  # (T, B, n_items + 1)


def batches(sessions, bs, shuffle):
    idx = list(range(len(sessions)))
    if shuffle:
        random.shuffle(idx)
    for i in range(0, len(idx), bs):
        yield pad_batch([sessions[j] for j in idx[i:i + bs]])


@torch.no_grad()
def evaluate(model, sessions, k=10):
    model.eval()
    hits = rr = n = 0.0
    for x, y in batches(sessions, 256, shuffle=False):
        logits = model(x.t())
        flat = logits.reshape(-1, logits.size(-1))
        tgt = y.reshape(-1)
        keep = tgt != PAD
        flat, tgt = flat[keep], tgt[keep]
        topk = flat.topk(k, dim=1).indices
        match = topk == tgt.unsqueeze(1)
        hits += match.any(dim=1).sum().item()
        ranks = match.float().argmax(dim=1) + 1
        rr += (match.any(dim=1).float() / ranks).sum().item()
        n += len(tgt)
    model.train()
    return hits / n, rr / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)

    train = simulate_sessions(6000, seed=1)
    val = simulate_sessions(1000, seed=2)
    model = GRU4Rec(400)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        tot = cnt = 0
        for x, y in batches(train, args.batch_size, shuffle=True):
            logits = model(x.t())
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.t().reshape(-1), ignore_index=PAD)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
            cnt += 1
        r, m = evaluate(model, val)
        print(f"epoch {epoch}: train_ce={tot / cnt:.4f} val_recall@10={r:.4f} val_mrr@10={m:.4f}")

    r, m = evaluate(model, val)
    print(f"val_mrr10={m:.4f}")
    print(f"val_recall10={r:.4f}")


if __name__ == "__main__":
    main()
