import argparse
import json

import torch
from torch import nn
from torch.utils.data import DataLoader

from scans import CATEGORIES, ScanDataset, make_scans


class HashedBagClassifier(nn.Module):
    def __init__(self, n_buckets, dim, n_classes):
        super().__init__()
        self.table = nn.Embedding(n_buckets, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def forward(self, ids):
        return self.mlp(self.table(ids).mean(dim=1))


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for ids, y in loader:
            correct += (model(ids).argmax(1) == y).sum().item()
            total += len(y)
    model.train()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    scans = make_scans(cfg["n_scans"], cfg["seed"])
    n_val = len(scans) // 6
    train_ds = ScanDataset(scans[n_val:], cfg["n_buckets"])
    val_ds = ScanDataset(scans[:n_val], cfg["n_buckets"])
    train_dl = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True,
                          num_workers=cfg["num_workers"], persistent_workers=cfg["num_workers"] > 0,
                          generator=torch.Generator().manual_seed(cfg["seed"]))
    val_dl = DataLoader(val_ds, batch_size=512)

    model = HashedBagClassifier(cfg["n_buckets"], cfg["dim"], len(CATEGORIES))
    opt = torch.optim.Adam(model.parameters(), **cfg["optimizer"])
    sched = torch.optim.lr_scheduler.StepLR(opt, **cfg["lr_schedule"])
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(cfg["epochs"]):
        seen, running = 0, 0.0
        for ids, y in train_dl:
            loss = loss_fn(model(ids), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            running += loss.item() * len(y)
            seen += len(y)
        print(f"epoch {epoch + 1} loss={running / seen:.4f} lr={opt.param_groups[0]['lr']:.2e} "
              f"val_acc={evaluate(model, val_dl):.4f}")
    print(f"val_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
