import argparse

import numpy as np
import torch
import torch.nn.functional as F

from rn import RelationNetwork
from scenes import ANSWERS, QTYPES, make_scenes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--n-train", type=int, default=6000)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)

    objs, q, ans, _ = make_scenes(args.n_train, rng)
    v_objs, v_q, v_ans, v_qt = make_scenes(1500, rng)
    model = RelationNetwork(objs.shape[-1], q.shape[-1], len(ANSWERS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ans))
        total = 0.0
        for i in range(0, len(ans), args.batch_size):
            idx = perm[i:i + args.batch_size]
            loss = F.cross_entropy(model(objs[idx], q[idx]), ans[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            pred = model(v_objs, v_q).argmax(1)
        print(f"epoch {epoch + 1:2d} loss {total / len(ans):.4f} val_acc {(pred == v_ans).float().mean():.4f}")

    for t, name in enumerate(QTYPES):
        sel = v_qt == t
        print(f"  {name:15s} acc {(pred[sel] == v_ans[sel]).float().mean():.3f}")
    print(f"val_acc={(pred == v_ans).float().mean():.4f}")


if __name__ == "__main__":
    main()
