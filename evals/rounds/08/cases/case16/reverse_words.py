"""Seq2seq with additive attention on a word-reversal task."""
import argparse
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, SOS, EOS = 0, 1, 2
LETTERS = "abcdefghijklmnop"
VOCAB = ["<pad>", "<s>", "</s>"] + list(LETTERS)
STOI = {c: i for i, c in enumerate(VOCAB)}


def random_word(rng, lo=4, hi=10):
    return "".join(rng.choice(LETTERS) for _ in range(rng.randint(lo, hi)))


def encode_batch(words, add_eos=False):
    seqs = [[STOI[c] for c in w] + ([EOS] if add_eos else []) for w in words]
    T = max(len(s) for s in seqs)
    out = torch.full((T, len(seqs)), PAD, dtype=torch.long)
    for b, s in enumerate(seqs):
        out[: len(s), b] = torch.tensor(s)
    return out  # (T, B)


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hid, bidirectional=True)
        self.bridge = nn.Linear(2 * hid, hid)

    def forward(self, src):
        out, h = self.rnn(self.emb(src))  # out: (S, B, 2H)
        h0 = torch.tanh(self.bridge(torch.cat([h[0], h[1]], dim=-1)))
        return out, h0


class AdditiveAttention(nn.Module):
    def __init__(self, enc_dim, dec_dim, att_dim):
        super().__init__()
        self.W_enc = nn.Linear(enc_dim, att_dim, bias=False)
        self.W_dec = nn.Linear(dec_dim, att_dim)
        self.v = nn.Linear(att_dim, 1, bias=False)

    def forward(self, dec_h, enc_out, enc_proj, src_mask):
        # enc_out: (S, B, E), enc_proj: (S, B, A), dec_h: (B, D), src_mask: (S, B) True on tokens
        scores = self.v(torch.tanh(enc_proj + self.W_dec(dec_h).unsqueeze(0))).squeeze(-1)  # (S, B)
        scores = scores.masked_fill(~src_mask, float("-inf"))
        alpha = F.softmax(scores, dim=1)
        context = (alpha.unsqueeze(-1) * enc_out).sum(0)  # (B, E)
        return context, alpha


class Decoder(nn.Module):
    def __init__(self, vocab, emb, hid, enc_dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.att = AdditiveAttention(enc_dim, hid, hid)
        self.cell = nn.GRUCell(emb + enc_dim, hid)
        self.out = nn.Linear(hid + enc_dim + emb, vocab)

    def step(self, tok, h, enc_out, enc_proj, src_mask):
        e = self.emb(tok)
        ctx, alpha = self.att(h, enc_out, enc_proj, src_mask)
        h = self.cell(torch.cat([e, ctx], dim=-1), h)
        logits = self.out(torch.cat([h, ctx, e], dim=-1))
        return logits, h, alpha


class Seq2Seq(nn.Module):
    def __init__(self, vocab=len(VOCAB), emb=32, hid=64):
        super().__init__()
        self.encoder = Encoder(vocab, emb, hid)
        self.decoder = Decoder(vocab, emb, hid, 2 * hid)

    def forward(self, src, tgt_in):
        enc_out, h = self.encoder(src)
        enc_proj = self.decoder.att.W_enc(enc_out)
        mask = src != PAD
        logits = []
        for t in range(tgt_in.size(0)):
            lg, h, _ = self.decoder.step(tgt_in[t], h, enc_out, enc_proj, mask)
            logits.append(lg)
        return torch.stack(logits)  # (T, B, V)

    @torch.no_grad()
    def greedy(self, src, max_len=12):
        enc_out, h = self.encoder(src)
        enc_proj = self.decoder.att.W_enc(enc_out)
        mask = src != PAD
        tok = torch.full((src.size(1),), SOS, dtype=torch.long)
        outs = []
        for _ in range(max_len):
            lg, h, _ = self.decoder.step(tok, h, enc_out, enc_proj, mask)
            tok = lg.argmax(-1)
            outs.append(tok)
        return torch.stack(outs)  # (L, B)


def decode(ids):
    s = []
    for i in ids:
        if i == EOS:
            break
        s.append(VOCAB[i])
    return "".join(s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    val_rng = random.Random(999)
    val_words = [random_word(val_rng) for _ in range(500)]

    model = Seq2Seq()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    crit = nn.CrossEntropyLoss(ignore_index=PAD)

    def evaluate():
        model.eval()
        preds = model.greedy(encode_batch(val_words))
        hyp = [decode(preds[:, b].tolist()) for b in range(len(val_words))]
        model.train()
        return sum(h == w[::-1] for h, w in zip(hyp, val_words)) / len(val_words)

    t0 = time.time()
    running = 0.0
    for step in range(1, args.steps + 1):
        words = [random_word(rng) for _ in range(args.batch_size)]
        src = encode_batch(words)
        tgt = encode_batch([w[::-1] for w in words], add_eos=True)
        tgt_in = torch.cat([torch.full((1, tgt.size(1)), SOS, dtype=torch.long), tgt[:-1]])
        logits = model(src, tgt_in)
        loss = crit(logits.reshape(-1, logits.size(-1)), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        running += loss.item()
        if step % 250 == 0:
            print(f"step {step:5d} loss {running / 250:.4f} val_em {evaluate():.3f} ({time.time() - t0:.0f}s)")
            running = 0.0
    print(f"val_exact_match={evaluate():.4f}")


if __name__ == "__main__":
    main()
