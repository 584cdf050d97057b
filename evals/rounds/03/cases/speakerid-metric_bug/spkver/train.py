"""Train the speaker encoder with AAM-softmax and score verification trials on unseen speakers.

    python -m spkver.train
"""
import argparse

import numpy as np
import torch
import torch.nn.functional as F

from .data import N_BINS, Corpus
from .metrics import all_pairs, equal_error_rate
from .model import AAMSoftmax, SpeakerEncoder


@torch.no_grad()
def verification_eer(encoder, x, spk):
    encoder.eval()
    emb = F.normalize(encoder(x), dim=1)
    encoder.train()
    i, j, labels = all_pairs(spk.numpy())
    scores = (emb[i] * emb[j]).sum(dim=1).numpy()
    return equal_error_rate(scores, labels)


def main():
    ap = argparse.ArgumentParser(prog="python -m spkver.train")
    ap.add_argument("--train-speakers", type=int, default=60)
    ap.add_argument("--utts", type=int, default=30)
    ap.add_argument("--test-speakers", type=int, default=30)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--margin", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    corpus = Corpus(seed=123)                         # fixed phone inventory
    test_env = corpus.new_speakers(args.test_speakers)
    x_te, y_te = map(torch.from_numpy, corpus.dataset(test_env, 10))
    corpus.rng = np.random.default_rng(args.seed)     # training speakers depend on the seed
    x_tr, y_tr = map(torch.from_numpy, corpus.dataset(corpus.new_speakers(args.train_speakers), args.utts))

    encoder = SpeakerEncoder(N_BINS)
    head = AAMSoftmax(32, args.train_speakers, margin=args.margin)
    opt = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=args.lr)
    gen = torch.Generator().manual_seed(args.seed)

    for epoch in range(1, args.epochs + 1):
        perm = torch.randperm(len(x_tr), generator=gen)
        total, correct = 0.0, 0
        for k in range(0, len(perm), args.batch_size):
            idx = perm[k:k + args.batch_size]
            loss, cosine = head(encoder(x_tr[idx]), y_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
            correct += (cosine.argmax(1) == y_tr[idx]).sum().item()
        print(f"epoch {epoch:2d}  aam_loss {total / len(x_tr):.3f}  train_id_acc {correct / len(x_tr):.3f}  "
              f"test_eer {verification_eer(encoder, x_te, y_te):.4f}")

    print(f"test_eer={verification_eer(encoder, x_te, y_te):.4f}")


if __name__ == "__main__":
    main()
