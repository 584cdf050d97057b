import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from grammar import VOCAB, OPEN, key_padding_mask, make_corpus


class BracketLM(nn.Module):
    def __init__(self, vocab, dim=32, hidden=96):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def shift(batch):
    """inputs = everything but the last symbol, targets = everything but the first."""
    return batch[:, :-1], batch[:, 1:]


def token_loss(logits, targets):
    ce = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), reduction="none")
    keep = key_padding_mask(targets).reshape(-1).float()
    return (ce * keep).sum() / keep.sum().clamp(min=1.0)


@torch.no_grad()
def close_accuracy(model, data):
    model.eval()
    inp, tgt = shift(data)
    pred = model(inp).argmax(-1)
    closing = torch.isin(tgt, torch.tensor(list(OPEN.values())))
    return (pred[closing] == tgt[closing]).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--max-len", type=int, default=24)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train = make_corpus(4000, args.max_len, seed=args.seed)
    val = make_corpus(800, args.max_len, seed=args.seed + 7)
    model = BracketLM(VOCAB)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(train))
        for i in range(0, len(train), 64):
            inp, tgt = shift(train[perm[i:i + 64]])
            loss = token_loss(model(inp), tgt)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        print(f"epoch {epoch + 1:2d} loss {loss.item():.4f} val_close_acc {close_accuracy(model, val):.3f}")
    print(f"val_close_acc={close_accuracy(model, val):.4f}")


if __name__ == "__main__":
    main()
