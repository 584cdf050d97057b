import argparse
import time

import torch
import torch.nn.functional as F
from graphs import make_dataset, normalise_adjacency
from layers import NodeClassifier


def batches(n, bs, gen):
    perm = torch.randperm(n, generator=gen)
    for s in range(0, n, bs):
        yield perm[s:s + bs]


@torch.no_grad()
def node_accuracy(model, x, a_hat, y):
    model.eval()
    pred = model(x, a_hat).argmax(-1)
    return (pred == y).float().mean().item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--train-graphs", type=int, default=1200)
    p.add_argument("--val-graphs", type=int, default=300)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch-graphs", type=int, default=32)
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    xtr, atr, ytr = make_dataset(args.train_graphs, seed=100 + args.seed)
    xva, ava, yva = make_dataset(args.val_graphs, seed=900 + args.seed)
    atr, ava = normalise_adjacency(atr), normalise_adjacency(ava)

    model = NodeClassifier(xtr.size(-1), args.hidden, int(ytr.max()) + 1, args.layers)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=5e-4)
    gen = torch.Generator().manual_seed(args.seed)
    t0 = time.time()
    for epoch in range(1, args.epochs + 1):
        model.train()
        total = 0.0
        for idx in batches(len(xtr), args.batch_graphs, gen):
            logp = model(xtr[idx], atr[idx])
            loss = F.nll_loss(logp.reshape(-1, logp.size(-1)), ytr[idx].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if epoch % 5 == 0:
            print(f"epoch {epoch:3d} loss {total / len(xtr):.4f} "
                  f"val_acc {node_accuracy(model, xva, ava, yva):.4f} [{time.time() - t0:.1f}s]")
    print(f"val_node_acc={node_accuracy(model, xva, ava, yva):.4f}")


if __name__ == "__main__":
    main()
