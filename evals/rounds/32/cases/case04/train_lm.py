import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from grammar import BOS, EOS, PAD, build_vocab, sample_paths


def encode(paths, stoi, max_len):
    rows = []
    for p in paths:
        ids = [stoi[BOS]] + [stoi[t] for t in p] + [stoi[EOS]]
        rows.append(ids + [stoi[PAD]] * (max_len - len(ids)))
    return torch.tensor(rows)


def padding_mask(tokens, pad_id):
    """True where the position is padding (same convention as key_padding_mask)."""
    return tokens.eq(pad_id)


class PathLM(nn.Module):
    def __init__(self, vocab, dim=48):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def masked_ce(logits, targets, mask):
    ce = F.cross_entropy(logits.transpose(1, 2), targets, reduction="none")
    mask = mask.float()
    return (ce * mask).sum() / mask.sum().clamp(min=1.0)


def token_acc(model, seqs, pad_id):
    model.eval()
    with torch.no_grad():
        inp, tgt = seqs[:, :-1], seqs[:, 1:]
        pred = model(inp).argmax(-1)
        real = tgt.ne(pad_id)
        return ((pred == tgt) & real).sum().item() / real.sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    stoi, itos = build_vocab()
    pad_id = stoi[PAD]
    train = encode(sample_paths(3000, args.seed), stoi, max_len=9)
    val = encode(sample_paths(600, args.seed + 100), stoi, max_len=9)
    model = PathLM(len(itos))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(train))
        for s in range(0, len(perm), 64):
            batch = train[perm[s:s + 64]]
            inp, tgt = batch[:, :-1], batch[:, 1:]
            mask = padding_mask(tgt, pad_id)
            loss = masked_ce(model(inp), tgt, mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_token_acc {token_acc(model, val, pad_id):.3f}")
    print(f"val_token_acc={token_acc(model, val, pad_id):.4f}")


if __name__ == "__main__":
    main()
