import argparse

import torch
import torch.nn.functional as F

from kg.graph import synth_graph
from kg.model import DistMult


@torch.no_grad()
def rank_metrics(model, triples):
    model.eval()
    h, r, t = triples.T
    scores = model.score_all(h, r)
    true = scores.gather(1, t.view(-1, 1))
    ranks = (scores > true).sum(1) + 1
    return (1.0 / ranks.float()).mean().item(), (ranks <= 10).float().mean().item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=60)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--lr", type=float, default=0.5)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    torch.manual_seed(args.seed)
    train, test = (torch.from_numpy(a) for a in synth_graph(seed=17))
    n_ent = int(torch.cat([train[:, [0, 2]], test[:, [0, 2]]]).max()) + 1
    n_rel = int(train[:, 1].max()) + 1
    model = DistMult(n_ent, n_rel, args.dim)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)

    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(train))
        total = 0.0
        for i in range(0, len(train), args.batch_size):
            h, r, t = train[perm[i:i + args.batch_size]].T
            loss = F.cross_entropy(model.score_all(h, r), t)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(h)
        if epoch % 10 == 0:
            mrr, hits = rank_metrics(model, test)
            print(f"epoch {epoch:3d} loss {total / len(train):.4f} test_mrr {mrr:.4f} hits@10 {hits:.3f}")
    print(f"test_mrr={mrr:.4f} hits10={hits:.4f}")


if __name__ == "__main__":
    main()
