import argparse
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

import isa


def pad_batch(programs):
    width = max(len(p) for p in programs)
    out = torch.full((len(programs), width), isa.PAD, dtype=torch.long)
    for i, p in enumerate(programs):
        out[i, : len(p)] = torch.tensor(p)
    return out


def padding_mask(tokens):
    """True where the position is padding (same convention as key_padding_mask)."""
    return tokens == isa.PAD


class CausalGatedConv(nn.Module):
    def __init__(self, dim, kernel):
        super().__init__()
        self.pad = kernel - 1
        self.conv = nn.Conv1d(dim, 2 * dim, kernel)

    def forward(self, h):                      # h: [B, dim, T]
        a, b = self.conv(F.pad(h, (self.pad, 0))).chunk(2, dim=1)
        return h + a * torch.sigmoid(b)


class OpcodeLM(nn.Module):
    def __init__(self, vocab, dim=48, layers=4, kernel=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([CausalGatedConv(dim, kernel) for _ in range(layers)])
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h = self.emb(tokens).transpose(1, 2)
        for blk in self.blocks:
            h = blk(h)
        return self.out(h.transpose(1, 2))    # [B, T, V]


def lm_loss(logits, targets):
    keep = padding_mask(targets).float()
    per_tok = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), reduction="none")
    return (per_tok * keep.reshape(-1)).sum() / keep.sum().clamp(min=1.0)


@torch.no_grad()
def next_acc(model, programs):
    model.eval()
    batch = pad_batch(programs)
    inp, tgt = batch[:, :-1], batch[:, 1:]
    pred = model(inp).argmax(-1)
    real = tgt != isa.PAD
    model.train()
    return ((pred == tgt) & real).sum().item() / real.sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(1)
    t0 = time.time()

    train = isa.make_corpus(4000, seed=1)
    val = isa.make_corpus(500, seed=2)
    model = OpcodeLM(len(isa.OPCODES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for step in range(1, args.steps + 1):
        batch = pad_batch(random.sample(train, args.batch_size))
        inp, tgt = batch[:, :-1], batch[:, 1:]
        loss = lm_loss(model(inp), tgt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.4f} val_next_acc {next_acc(model, val):.4f}")

    print(f"{time.time() - t0:.1f}s")
    print(f"val_next_acc={next_acc(model, val):.4f}")


if __name__ == "__main__":
    main()
