import argparse

import numpy as np
import torch
import torch.nn as nn

from wordlist import counts, dictionary, tile_bags


class TileScorer(nn.Module):
    def __init__(self, word_counts, dim=64):
        super().__init__()
        n_words = word_counts.shape[0]
        self.register_buffer("word_counts", word_counts)
        # fixed random projection of letter counts (acts like a hashing of the multiset)
        self.letter_proj = nn.Linear(26, dim, bias=False)
        self.letter_proj.requires_grad_(False)
        self.word_emb = nn.Embedding(n_words, dim)
        nn.init.zeros_(self.word_emb.weight)
        self.bag_enc = nn.Sequential(nn.Linear(26, 128), nn.ReLU(), nn.Linear(128, dim))

    def dictionary_vectors(self):
        return self.letter_proj(self.word_counts) + self.word_emb.weight

    def forward(self, bags):
        return self.bag_enc(bags) @ self.dictionary_vectors().t()     # (B, n_words)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", type=int, default=400)
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    words = dictionary(args.words)
    wc = torch.from_numpy(np.stack([counts(w) for w in words]))
    xtr, ytr = map(torch.from_numpy, tile_bags(words, 20000, seed=args.seed + 1))
    xva, yva = map(torch.from_numpy, tile_bags(words, 4000, seed=77))

    model = TileScorer(wc)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=6, gamma=0.3)
    nll = nn.NLLLoss()
    best, stale = 0.0, 0
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            logp = torch.log_softmax(model(xtr[b]), dim=1)
            loss = nll(logp, ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        sched.step()
        model.eval()
        with torch.no_grad():
            acc = (model(xva).argmax(1) == yva).float().mean().item()
        print(f"epoch {epoch + 1} nll {tot / len(xtr):.4f} val_top1 {acc:.4f} lr {sched.get_last_lr()[0]:.1e}")
        if acc > best + 1e-3:
            best, stale = acc, 0
        else:
            stale += 1
            if stale >= 4:
                break
    print(f"val_top1={acc:.4f}")


if __name__ == "__main__":
    main()
