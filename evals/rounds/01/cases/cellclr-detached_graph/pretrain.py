import argparse
import time

import torch

from cellclr import SimCLR, TwoViews, knn_accuracy, model_input, nt_xent, simulate_cells


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=4000)
    ap.add_argument("--genes", type=int, default=64)
    ap.add_argument("--types", type=int, default=6)
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--temperature", type=float, default=0.2)
    ap.add_argument("--data-seed", type=int, default=13)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    counts, types = simulate_cells(args.cells, args.genes, args.types, args.data_seed)
    counts, types = torch.from_numpy(counts), torch.from_numpy(types)
    n_test = args.cells // 4
    tr_c, te_c, tr_y, te_y = counts[n_test:], counts[:n_test], types[n_test:], types[:n_test]

    model = SimCLR(args.genes)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    views = TwoViews()
    g = torch.Generator().manual_seed(args.seed)

    def probe():
        model.eval()
        with torch.no_grad():
            acc = knn_accuracy(model.embed(model_input(tr_c)), tr_y, model.embed(model_input(te_c)), te_y)
        model.train()
        return acc

    print(f"cells={len(counts)} knn_acc at init {probe():.4f}")
    t0 = time.time()
    for epoch in range(1, args.epochs + 1):
        perm = torch.randperm(len(tr_c), generator=g)
        tot = 0.0
        for s in range(0, len(perm) - args.batch_size + 1, args.batch_size):
            batch = tr_c[perm[s:s + args.batch_size]]
            v1, v2 = views(batch, g)
            loss = nt_xent(model(v1), model(v2), args.temperature)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        if epoch % 5 == 0:
            print(f"epoch {epoch:3d} nt_xent {tot / (len(perm) // args.batch_size):.4f} "
                  f"knn_acc {probe():.4f} [{time.time() - t0:.1f}s]")
    print(f"knn_acc={probe():.4f}")


if __name__ == "__main__":
    main()
