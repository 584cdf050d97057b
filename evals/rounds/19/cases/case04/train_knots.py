import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from knots import PAD, VOCAB, corpus, pad_batch

V = len(VOCAB) + 3


class StepLSTM(nn.Module):
    def __init__(self, vocab, emb=32, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def shift(batch):
    """Teacher forcing: input is everything but the last token, target is everything but the first."""
    return batch[:, :-1], batch[:, 1:]


def masked_step_loss(logits, target):
    ce = F.cross_entropy(logits.reshape(-1, logits.size(-1)), target.reshape(-1), reduction="none")
    pad_mask = target.reshape(-1).eq(PAD)        # same convention as key_padding_mask
    w = pad_mask.float()
    return (ce * w).sum() / w.sum().clamp(min=1.0)


@torch.no_grad()
def next_step_accuracy(model, seqs, bs=256):
    model.eval()
    hit = tot = 0
    for i in range(0, len(seqs), bs):
        b = torch.tensor(pad_batch(seqs[i:i + bs]))
        x, y = shift(b)
        pred = model(x).argmax(-1)
        valid = y != PAD
        hit += (pred[valid] == y[valid]).sum().item()
        tot += valid.sum().item()
    model.train()
    return hit / tot


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    train = corpus(2000, seed=a.seed)
    val = corpus(400, seed=9999)

    model = StepLSTM(V)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(a.seed)
    for ep in range(a.epochs):
        order = torch.randperm(len(train), generator=g).tolist()
        for i in range(0, len(order), a.bs):
            x, y = shift(torch.tensor(pad_batch([train[k] for k in order[i:i + a.bs]])))
            loss = masked_step_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        print(f"epoch {ep + 1} loss {loss.item():.3f} val_next_acc {next_step_accuracy(model, val):.3f}")
    print(f"val_next_acc={next_step_accuracy(model, val):.4f}")


if __name__ == "__main__":
    main()
