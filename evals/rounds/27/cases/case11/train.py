import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from batching import lm_pairs, pad_batch, padding_mask
from grammar import PAD, VOCAB, corpus


class TokenLSTM(nn.Module):
    def __init__(self, vocab, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.rnn = nn.LSTM(dim, dim, num_layers=2, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


def masked_token_loss(logits, targets, target_lengths):
    ce = F.cross_entropy(logits.transpose(1, 2), targets, reduction="none")   # (B, T)
    mask = padding_mask(target_lengths, targets.size(1)).float()
    return (ce * mask).sum() / mask.sum().clamp(min=1.0)


@torch.no_grad()
def token_accuracy(model, docs):
    model.eval()
    x, lengths = pad_batch(docs)
    inp, tgt, _ = lm_pairs(x, lengths)
    pred = model(inp).argmax(-1)
    real = tgt != PAD
    model.train()
    return ((pred == tgt) & real).sum().item() / real.sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)

    train_docs = corpus(3000, args.seed)
    val_docs = corpus(300, args.seed + 1)
    model = TokenLSTM(len(VOCAB))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for step in range(1, args.steps + 1):
        x, lengths = pad_batch(rng.sample(train_docs, args.batch_size))
        inp, tgt, tgt_len = lm_pairs(x, lengths)
        loss = masked_token_loss(model(inp), tgt, tgt_len)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        if step % 100 == 0:
            print(f"step {step}  loss {loss.item():.4f}  val_token_acc {token_accuracy(model, val_docs):.4f}")
    print(f"val_token_acc={token_accuracy(model, val_docs):.4f}")


if __name__ == "__main__":
    main()
