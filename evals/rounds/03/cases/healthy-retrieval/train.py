"""Dual-encoder retrieval trained with in-batch negatives."""
import argparse

import numpy as np
import torch
import torch.nn.functional as F

from corpus import VOCAB, Catalogue
from towers import DualEncoder
from wordvecs import ppmi_svd


@torch.no_grad()
def recall_at(model, queries, docs, ks=(1, 5)):
    model.eval()
    q = model.query_tower(queries)
    d = model.doc_tower(docs)
    model.train()
    ranking = (q @ d.t()).argsort(dim=1, descending=True)
    gold = torch.arange(len(queries)).unsqueeze(1)
    return {k: (ranking[:, :k] == gold).any(dim=1).float().mean().item() for k in ks}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    cat = Catalogue(seed=7)
    vectors = ppmi_svd(cat.unlabeled_text(4000), VOCAB)
    cat.rng = np.random.default_rng(args.seed)
    train_docs = torch.from_numpy(cat.documents(4000))
    train_q = torch.from_numpy(cat.queries(train_docs.numpy()))
    cat.rng = np.random.default_rng(999)
    test_docs = torch.from_numpy(cat.documents(500))
    test_q = torch.from_numpy(cat.queries(test_docs.numpy()))

    model = DualEncoder(vectors)
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(trainable, lr=args.lr)
    print(f"trainable params {sum(p.numel() for p in trainable)}, "
          f"before training recall@1 {recall_at(model, test_q, test_docs)[1]:.3f}")

    gen = torch.Generator().manual_seed(args.seed)
    for epoch in range(1, args.epochs + 1):
        perm = torch.randperm(len(train_docs), generator=gen)
        total, steps = 0.0, 0
        for i in range(0, len(perm) - args.batch_size + 1, args.batch_size):
            idx = perm[i:i + args.batch_size]
            scores = model(train_q[idx], train_docs[idx])
            labels = torch.arange(len(idx))
            loss = 0.5 * (F.cross_entropy(scores, labels) + F.cross_entropy(scores.t(), labels))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            steps += 1
        r = recall_at(model, test_q, test_docs)
        print(f"epoch {epoch}  loss {total / steps:.4f}  recall@1 {r[1]:.3f}  recall@5 {r[5]:.3f}")

    r = recall_at(model, test_q, test_docs)
    print(f"recall_at_5={r[5]:.4f}")
    print(f"recall_at_1={r[1]:.4f}")


if __name__ == "__main__":
    main()
