import argparse
import math

import torch
from torch import nn
import torch.nn.functional as F

from grammar import PAD, VOCAB, corpus


def collate(seqs):
    """Pad to the longest table. Returns ids (B, T) and the padding mask (True = pad)."""
    T = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), T), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, :len(s)] = torch.tensor(s)
    return ids, ids.eq(PAD)


class TableLM(nn.Module):
    def __init__(self, vocab, d=64, heads=4, layers=2, max_len=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        layer = nn.TransformerEncoderLayer(d, heads, dim_feedforward=128, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids, pad_mask):
        T = ids.shape[1]
        h = self.tok(ids) + self.pos(torch.arange(T))
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        h = self.blocks(h, mask=causal, src_key_padding_mask=pad_mask)
        return self.out(h)


def lm_loss(logits, ids, pad_mask):
    """Next-token cross-entropy, averaged over the real (non-padding) targets."""
    targets = ids[:, 1:]
    keep = pad_mask[:, 1:].float()
    ce = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="none")
    return (ce * keep.reshape(-1)).sum() / keep.sum().clamp(min=1.0)


@torch.no_grad()
def token_accuracy(model, seqs, bs=256):
    model.eval()
    correct = total = 0
    for i in range(0, len(seqs), bs):
        ids, pad = collate(seqs[i:i + bs])
        pred = model(ids, pad)[:, :-1].argmax(-1)
        real = ~pad[:, 1:]
        correct += (pred.eq(ids[:, 1:]) & real).sum().item()
        total += real.sum().item()
    model.train()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train = corpus(4000, seed=args.seed)
    val = corpus(500, seed=10_000 + args.seed)
    model = TableLM(len(VOCAB))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 50))

    g = torch.Generator().manual_seed(args.seed)
    for step in range(args.steps):
        idx = torch.randint(len(train), (args.batch_size,), generator=g)
        ids, pad = collate([train[i] for i in idx])
        loss = lm_loss(model(ids, pad), ids, pad)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        if step % 100 == 0:
            print(f"step {step} loss={loss.item():.3f} ppl={math.exp(min(loss.item(), 20)):.2f}")
    print(f"val_token_acc={token_accuracy(model, val):.4f}")


if __name__ == "__main__":
    main()
