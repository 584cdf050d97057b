import argparse
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from grammar import build_vocab, script

PAD = 0


def encode_corpus(n, seed, vocab, max_beats):
    r = random.Random(seed)
    return [torch.tensor([vocab[t] for t in script(r, max_beats)]) for _ in range(n)]


def collate(seqs):
    """Right-pad a list of token tensors.

    Returns inputs, next-token targets and `pad_mask` (B, T-1) where True
    marks padded positions, same convention as key_padding_mask.
    """
    lengths = torch.tensor([len(s) - 1 for s in seqs])
    T = int(lengths.max()) + 1
    batch = torch.full((len(seqs), T), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        batch[i, : len(s)] = s
    inputs, targets = batch[:, :-1], batch[:, 1:]
    pad_mask = torch.arange(T - 1)[None, :] >= lengths[:, None]
    return inputs, targets, pad_mask


class CausalGatedConv(nn.Module):
    def __init__(self, d, k, dilation):
        super().__init__()
        self.pad = (k - 1) * dilation
        self.conv = nn.Conv1d(d, 2 * d, k, dilation=dilation)

    def forward(self, x):                       # x: (B, d, T)
        h = self.conv(F.pad(x, (self.pad, 0)))
        a, g = h.chunk(2, dim=1)
        return x + a * torch.sigmoid(g)


class ScriptLM(nn.Module):
    def __init__(self, vocab_size, d=64, k=3, dilations=(1, 2, 4, 8, 1, 2)):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d, padding_idx=PAD)
        self.blocks = nn.ModuleList([CausalGatedConv(d, k, r) for r in dilations])
        self.out = nn.Linear(d, vocab_size)

    def forward(self, tokens):
        h = self.emb(tokens).transpose(1, 2)
        for blk in self.blocks:
            h = blk(h)
        return self.out(h.transpose(1, 2))      # (B, T, V)


def sequence_loss(logits, targets, mask):
    ce = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="none")
    mask = mask.reshape(-1).float()
    return (ce * mask).sum() / mask.sum().clamp(min=1.0)


@torch.no_grad()
def token_accuracy(model, corpus, bs=128):
    model.eval()
    hit, tot = 0, 0
    for s in range(0, len(corpus), bs):
        inputs, targets, pad_mask = collate(corpus[s:s + bs])
        pred = model(inputs).argmax(-1)
        real = ~pad_mask
        hit += (pred[real] == targets[real]).sum().item()
        tot += real.sum().item()
    return hit / tot


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--max-beats", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    vocab = build_vocab()
    train = encode_corpus(3000, args.seed, vocab, args.max_beats)
    val = encode_corpus(300, args.seed + 1000, vocab, args.max_beats)
    print(f"vocab {len(vocab)}, {len(train)} train scripts, {len(val)} val scripts")

    model = ScriptLM(len(vocab))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    r = random.Random(args.seed)
    t0 = time.time()
    for step in range(1, args.steps + 1):
        model.train()
        inputs, targets, pad_mask = collate(r.sample(train, args.batch_size))
        loss = sequence_loss(model(inputs), targets, pad_mask)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        if step % 200 == 0:
            print(f"step {step:4d}  loss {loss.item():.4f}  val_token_acc {token_accuracy(model, val):.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"val_token_acc={token_accuracy(model, val):.4f}")


if __name__ == "__main__":
    main()
