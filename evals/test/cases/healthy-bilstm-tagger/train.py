import argparse
import os

import torch
import torch.nn as nn

from data import TAGS, Vocab, build_corpus, read_corpus
from tagger import BiLSTMTagger

IGNORE = -100


def make_batch(sentences, vocab):
    lengths = torch.tensor([len(s["words"]) for s in sentences])
    T = int(lengths.max())
    tokens = torch.full((len(sentences), T), vocab.pad_id, dtype=torch.long)
    tags = torch.zeros((len(sentences), T), dtype=torch.long)
    for i, s in enumerate(sentences):
        n = len(s["words"])
        tokens[i, :n] = torch.tensor(vocab.encode(s["words"]))
        tags[i, :n] = torch.tensor([TAGS.index(t) for t in s["tags"]])
    labels = tags.masked_fill(tokens == vocab.pad_id, IGNORE)
    return tokens, lengths, labels


def token_accuracy(model, sentences, vocab):
    model.eval()
    with torch.no_grad():
        tokens, lengths, labels = make_batch(sentences, vocab)
        pred = model(tokens, lengths).argmax(-1)
        mask = labels != IGNORE
        return (pred[mask] == labels[mask]).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    for split, n, seed in (("train", 2000, 1), ("dev", 300, 2)):
        if not os.path.exists(f"data/{split}.jsonl"):
            build_corpus(f"data/{split}.jsonl", n, seed)
    train_sents, dev_sents = read_corpus("data/train.jsonl"), read_corpus("data/dev.jsonl")
    vocab = Vocab(train_sents)

    model = BiLSTMTagger(len(vocab), len(TAGS), vocab.pad_id)
    criterion = nn.CrossEntropyLoss(ignore_index=IGNORE)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(train_sents)).tolist()
        total, steps = 0.0, 0
        for i in range(0, len(perm), args.batch_size):
            tokens, lengths, labels = make_batch([train_sents[j] for j in perm[i:i + args.batch_size]], vocab)
            logits = model(tokens, lengths)
            loss = criterion(logits.reshape(-1, len(TAGS)), labels.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            optimizer.step()
            total += loss.item()
            steps += 1
        print(f"epoch {epoch}: train loss {total / steps:.4f}, dev acc {token_accuracy(model, dev_sents, vocab):.4f}")


if __name__ == "__main__":
    main()
