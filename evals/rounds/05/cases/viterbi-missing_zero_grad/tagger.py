import argparse
import random

import torch

from crf import Emissions, sequence_nll, viterbi
from lang import N_TAGS, VOCAB, corpus


def dev_accuracy(model, transitions, sents):
    model.eval()
    hit = tot = 0
    for toks, tags in sents:
        with torch.no_grad():
            path = viterbi(model(toks), transitions)
        hit += sum(int(p == t) for p, t in zip(path, tags.tolist()))
        tot += len(tags)
    model.train()
    return hit / tot


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--trans-lr", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)

    train, dev = corpus(600, seed=args.seed), corpus(150, seed=args.seed + 1)
    model = Emissions(VOCAB, N_TAGS)
    transitions = torch.nn.Parameter(torch.zeros(N_TAGS, N_TAGS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    trans_opt = torch.optim.SGD([transitions], lr=args.trans_lr)

    for epoch in range(args.epochs):
        random.shuffle(train)
        total = 0.0
        for i in range(0, len(train), args.batch):
            batch = train[i:i + args.batch]
            loss = sum(sequence_nll(model(toks), tags, transitions) for toks, tags in batch) / len(batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
            trans_opt.step()
            total += loss.item() * len(batch)
        print(f"epoch {epoch + 1}: nll/sent {total / len(train):.3f}  dev_acc {dev_accuracy(model, transitions, dev):.4f}")

    print(f"dev_acc={dev_accuracy(model, transitions, dev):.4f}")


if __name__ == "__main__":
    main()
