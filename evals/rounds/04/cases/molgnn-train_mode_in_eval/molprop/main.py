import argparse
import copy

import numpy as np
import torch
import torch.nn.functional as F

from .data import batches, make_split
from .model import MolNet


@torch.no_grad()
def evaluate(model, mols, batch_size=64):
    errs = []
    for x, ei, b, y in batches(mols, batch_size):
        pred = model(x, ei, b, len(y))
        errs.append((pred - y).abs())
    return torch.cat(errs).mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--patience", type=int, default=6)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    train, val, test = make_split(1500, 1), make_split(300, 2), make_split(400, 3)
    # test molecules grouped by size, as they come out of the registry export
    test.sort(key=lambda m: len(m["x"]))
    hp = dict(dim=48, layers=3, dropout=0.2)
    model = MolNet(**hp)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    best, best_state, bad = float("inf"), None, 0
    for epoch in range(1, args.epochs + 1):
        model.train()
        tot, n = 0.0, 0
        for x, ei, b, y in batches(train, args.batch_size, shuffle=True, rng=rng):
            loss = F.smooth_l1_loss(model(x, ei, b, len(y)), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
            n += len(y)
        model.eval()
        val_mae = evaluate(model, val)
        flag = ""
        if val_mae < best:
            best, best_state, bad, flag = val_mae, copy.deepcopy(model.state_dict()), 0, " *"
        else:
            bad += 1
        print(f"epoch {epoch:3d} train_loss {tot / n:.4f} val_mae {val_mae:.4f}{flag}")
        if bad >= args.patience:
            print(f"early stop at epoch {epoch}")
            break

    final = MolNet(**hp)
    final.load_state_dict(best_state)
    test_mae = evaluate(final, test)
    print(f"best val_mae {best:.4f}")
    print(f"test_mae={test_mae:.4f}")


if __name__ == "__main__":
    main()
