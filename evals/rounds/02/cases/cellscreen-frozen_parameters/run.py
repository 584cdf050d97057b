import json
import sys

import numpy as np
import torch
import torch.nn.functional as F
from cells import DEFECTS, simulate_cells
from multitask import SharedTrunkNet
from torch.utils.data import DataLoader, TensorDataset


def set_phase(model, epoch, warmup_epochs):
    """Heads-only warm-up on top of the random trunk, then fine-tune everything."""
    if epoch < warmup_epochs:
        model.trunk.requires_grad_(False)
    else:
        model.trunk.train()


def evaluate(model, x, cap, defect):
    model.eval()
    with torch.no_grad():
        cap_hat, logits = model(x)
    model.train()
    r2 = 1 - ((cap_hat - cap) ** 2).sum() / ((cap - cap.mean()) ** 2).sum()
    acc = (logits.argmax(1) == defect).float().mean()
    return r2.item(), acc.item()


def main(path, seed=None):
    cfg = json.load(open(path))
    if seed is not None:
        cfg["seed"] = seed
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)

    d = cfg["data"]
    xtr, ctr, ytr = simulate_cells(d["n_train"], d["n_features"], seed=cfg["seed"])
    xva, cva, yva = simulate_cells(d["n_val"], d["n_features"], seed=cfg["seed"] + 1)
    mu, sd = xtr.mean(0), xtr.std(0)
    c_mu, c_sd = ctr.mean(), ctr.std()
    xtr, xva = (xtr - mu) / sd, (xva - mu) / sd
    ctr, cva = (ctr - c_mu) / c_sd, (cva - c_mu) / c_sd
    print("defect mix:", np.bincount(ytr, minlength=len(DEFECTS)) / len(ytr))

    t = cfg["train"]
    loader = DataLoader(TensorDataset(*map(torch.from_numpy, (xtr, ctr, ytr))),
                        batch_size=t["batch_size"], shuffle=True)
    xva, cva, yva = map(torch.from_numpy, (xva, cva, yva))

    model = SharedTrunkNet(d["n_features"], len(DEFECTS), **cfg["model"])
    opt = torch.optim.AdamW(model.parameters(), lr=t["lr"], weight_decay=t["weight_decay"])
    w = cfg["loss_weights"]

    for epoch in range(t["epochs"]):
        set_phase(model, epoch, t["head_warmup_epochs"])
        sums = np.zeros(2)
        for xb, cb, yb in loader:
            cap_hat, logits = model(xb)
            l_cap = F.mse_loss(cap_hat, cb)
            l_def = F.cross_entropy(logits, yb)
            loss = w["capacity"] * l_cap + w["defect"] * l_def
            opt.zero_grad()
            loss.backward()
            opt.step()
            sums += (l_cap.item(), l_def.item())
        r2, acc = evaluate(model, xva, cva, yva)
        print(f"epoch {epoch:2d}  mse={sums[0] / len(loader):.4f} ce={sums[1] / len(loader):.4f}  "
              f"val_r2={r2:.3f} val_defect_acc={acc:.3f}")

    r2, acc = evaluate(model, xva, cva, yva)
    print(f"val_defect_acc={acc:.4f}")
    print(f"METRIC val_r2={r2:.4f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "configs/base.json",
         int(sys.argv[2]) if len(sys.argv) > 2 else None)
