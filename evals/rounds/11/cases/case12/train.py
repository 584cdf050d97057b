import argparse

import torch
import torch.nn as nn

from model import FrozenLexiconClassifier
from questions import TYPES, make_questions

PREFIX = {"hey", "quick", "question", "i", "wonder", "tell", "me"}


def build_vocab(samples):
    vocab = {"<pad>": 0, "<unk>": 1}
    for words, _ in samples:
        for w in words:
            vocab.setdefault(w, len(vocab))
    return vocab


def encode(samples, vocab, max_len):
    ids = torch.zeros(len(samples), max_len, dtype=torch.long)
    labels = torch.tensor([t for _, t in samples])
    for i, (words, _) in enumerate(samples):
        words = [w for w in words if w not in PREFIX] or words     # strip chit-chat
        for j, w in enumerate(words[:max_len]):
            ids[i, j] = vocab.get(w, 1)
    return ids, labels


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--emb-dim", type=int, default=32)
    ap.add_argument("--proj-dim", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train = make_questions(6000, seed=10 + args.seed)
    test = make_questions(1500, seed=77)
    vocab = build_vocab(train)
    Xtr, ytr = encode(train, vocab, 12)
    Xte, yte = encode(test, vocab, 12)

    model = FrozenLexiconClassifier(len(vocab), args.emb_dim, args.proj_dim, len(TYPES))
    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"vocab {len(vocab)}; trainable params {sum(p.numel() for p in trainable)} "
          f"of {sum(p.numel() for p in model.parameters())}")
    opt = torch.optim.Adam(trainable, lr=args.lr)
    nll = nn.NLLLoss()

    for epoch in range(args.epochs):
        perm = torch.randperm(len(Xtr))
        norms = []
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            loss = nll(model(Xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            norms.append(torch.nn.utils.clip_grad_norm_(trainable, args.clip).item())
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(Xte).argmax(-1) == yte).float().mean().item()
        model.train()
        print(f"epoch {epoch + 1} loss={loss.item():.4f} grad_norm_max={max(norms):.2f} test_acc={acc:.4f}")
    print(f"test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
