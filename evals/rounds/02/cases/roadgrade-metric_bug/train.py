import argparse

import numpy as np
import torch
from metrics import grade_metrics
from ordinal import OrdinalNet, ordinal_loss
from survey import N_GRADES, simulate_segments
from torch.utils.data import DataLoader, TensorDataset


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    x, y = simulate_segments(6000, seed=args.seed)
    x_tr, y_tr, x_va, y_va = x[:4800], y[:4800], x[4800:], y[4800:]
    mu, sd = x_tr.mean(0), x_tr.std(0)
    x_tr, x_va = (x_tr - mu) / sd, (x_va - mu) / sd
    print("grade distribution:", np.round(np.bincount(y_tr, minlength=N_GRADES) / len(y_tr), 3))

    dl = DataLoader(TensorDataset(torch.from_numpy(x_tr), torch.from_numpy(y_tr)),
                    batch_size=args.batch_size, shuffle=True)
    x_va, y_va = torch.from_numpy(x_va), torch.from_numpy(y_va)
    model = OrdinalNet(x.shape[1], N_GRADES)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-5)

    for epoch in range(1, args.epochs + 1):
        total = 0.0
        for xb, yb in dl:
            loss = ordinal_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
        model.eval()
        with torch.no_grad():
            val_logits = model(x_va)
            val_loss = ordinal_loss(val_logits, y_va).item()
        model.train()
        acc, mae = grade_metrics(val_logits, y_va)
        if epoch % 2 == 0:
            print(f"epoch {epoch:2d}  train_bce {total / len(y_tr):.4f}  val_bce {val_loss:.4f}  "
                  f"val_acc {acc:.3f}  val_mae {mae:.3f}")

    print(f"val_acc={acc:.4f}")
    print(f"METRIC val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
