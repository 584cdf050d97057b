"""python -m fttab.train --config configs/default.json"""
import argparse
import json
import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from .data import FEATURES, make_datasets
from .metrics import roc_auc
from .model import FTTransformer

log = logging.getLogger("fttab")


@torch.no_grad()
def predict(model, loader):
    model.eval()
    scores, labels = [], []
    for x, y in loader:
        scores.append(model(x).softmax(-1)[:, 1])
        labels.append(y)
    return torch.cat(scores), torch.cat(labels)


def run(cfg):
    torch.manual_seed(cfg["data"]["seed"])
    train_set, val_set = make_datasets(**cfg["data"])
    tc = cfg["train"]
    train_loader = DataLoader(train_set, batch_size=tc["batch_size"], shuffle=True, drop_last=True)
    val_loader = DataLoader(val_set, batch_size=512)

    model = FTTransformer(len(FEATURES), 2, **cfg["model"])
    opt = torch.optim.AdamW(model.parameters(), lr=tc["lr"], weight_decay=tc["weight_decay"])
    log.info("parameters: %d", sum(p.numel() for p in model.parameters()))

    for epoch in range(tc["epochs"]):
        model.train()
        running = 0.0
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        s, y = predict(model, val_loader)
        log.info("epoch %d loss %.4f val_auc %.4f", epoch + 1, running / len(train_loader), roc_auc(s, y))

    s, y = predict(model, val_loader)
    return roc_auc(s, y)


def main():
    ap = argparse.ArgumentParser(prog="fttab.train")
    ap.add_argument("--config", required=True)
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    with open(args.config) as fh:
        cfg = json.load(fh)
    if args.seed is not None:
        cfg["data"]["seed"] = args.seed
    auc = run(cfg)
    print(f"val_auc={auc:.4f}")


if __name__ == "__main__":
    main()
