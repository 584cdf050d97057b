import argparse
import json
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from eegsz_data import PatientScaler, WindowDataset, simulate_cohort
from model import SzNet


def auc(scores, labels):
    order = torch.argsort(scores)
    ranks = torch.empty_like(order, dtype=torch.float)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=torch.float)
    pos = labels == 1
    n_pos, n_neg = pos.sum().item(), (~pos).sum().item()
    return ((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()


def split(n, val_fraction, seed):
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(seed))
    n_val = int(val_fraction * n)
    return perm[n_val:], perm[:n_val]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)
    t0 = time.time()

    x, y, pids = simulate_cohort(cfg["n_patients"], cfg["windows_per_patient"], cfg["seizure_fraction"], seed=1234)
    tr, va = split(len(y), cfg["val_fraction"], seed=99)

    scaler = PatientScaler().fit(x[tr], pids[tr])
    train_ds = WindowDataset(x[tr], y[tr], pids[tr].tolist(), scaler)
    val_ds = WindowDataset(x[va], y[va], pids[va], scaler)

    train_dl = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True,
                          num_workers=cfg["num_workers"], persistent_workers=cfg["num_workers"] > 0)
    val_dl = DataLoader(val_ds, batch_size=256, shuffle=False)

    model = SzNet()
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    pos_frac = y[tr].float().mean().item()
    pos_weight = torch.tensor((1 - pos_frac) / pos_frac)

    for epoch in range(cfg["epochs"]):
        model.train()
        running = 0.0
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = F.binary_cross_entropy_with_logits(model(xb), yb, pos_weight=pos_weight)
            loss.backward()
            opt.step()
            running += loss.item()

        model.eval()
        scores, labels = [], []
        with torch.no_grad():
            for xb, yb in val_dl:
                scores.append(model(xb))
                labels.append(yb)
        val_auc = auc(torch.cat(scores), torch.cat(labels))
        print(f"epoch {epoch} loss {running / len(train_dl):.4f} val_auc {val_auc:.4f}")

    print(f"done in {time.time() - t0:.1f}s")
    print(f"val_auc={val_auc:.4f}")


if __name__ == "__main__":
    main()
