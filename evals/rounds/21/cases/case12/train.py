import argparse
import json
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from dataset import synth_hand, JointAngles, N_JOINTS


def build_loaders(cfg):
    xtr, ytr = synth_hand(cfg["n_letters"], cfg["per_letter"], seed=1)
    xva, yva = synth_hand(cfg["n_letters"], 150, seed=1)  # same prototypes
    # a fresh draw of jitter for validation
    import numpy as np
    rng = np.random.default_rng(77)
    xva = xva + rng.normal(0, 0.35, xva.shape).astype(np.float32)
    train_ds, val_ds = JointAngles(xtr, ytr), JointAngles(xva, yva)
    train_dl = DataLoader(train_ds, batch_size=cfg["batch_size"],
                          num_workers=cfg["num_workers"], persistent_workers=True)
    val_dl = DataLoader(val_ds, batch_size=256)
    return train_dl, val_dl


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
    train_dl, val_dl = build_loaders(cfg)
    d_in = N_JOINTS * 4
    model = nn.Sequential(nn.Linear(d_in, cfg["hidden"]), nn.ReLU(),
                          nn.Linear(cfg["hidden"], cfg["n_letters"]))
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    crit = nn.CrossEntropyLoss()
    for epoch in range(cfg["epochs"]):
        model.train()
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = crit(model(xb), yb)
            loss.backward()
            opt.step()
        model.eval()
        correct = n = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                correct += (model(xb).argmax(-1) == yb).sum().item()
                n += len(yb)
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {correct / n:.4f}")
    print(f"val_acc={correct / n:.4f}")


if __name__ == "__main__":
    main()
