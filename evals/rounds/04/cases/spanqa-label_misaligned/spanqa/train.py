import argparse
import json
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from .data import BucketBatchSampler, build, collate
from .model import SpanReader


def evaluate(model, loader):
    model.eval()
    hit = n = 0
    for ctx, q, s, e in loader:
        ps, pe = model.decode(ctx, q)
        hit += ((ps == s) & (pe == e)).sum().item()
        n += len(s)
    return hit / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/base.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    tcfg = cfg["train"]
    if args.seed is not None:
        tcfg["seed"] = args.seed
    torch.manual_seed(tcfg["seed"])

    train_ds, dev_ds = build(cfg["data"])
    if tcfg.get("bucket", True):
        train_ds.bucket()
    train_dl = DataLoader(train_ds, batch_sampler=BucketBatchSampler(len(train_ds), tcfg["batch_size"], tcfg["seed"]),
                          collate_fn=collate)
    dev_dl = DataLoader(dev_ds, batch_size=128, collate_fn=collate)

    m = cfg["model"]
    model = SpanReader(cfg["data"]["vocab"], m["emb"], m["hidden"], m["layers"])
    opt = torch.optim.AdamW(model.parameters(), lr=tcfg["lr"], weight_decay=0.01)

    t0 = time.time()
    for epoch in range(tcfg["epochs"]):
        model.train()
        tot = 0.0
        for ctx, q, s, e in train_dl:
            start_logits, end_logits = model(ctx, q)
            loss = (F.cross_entropy(start_logits, s) + F.cross_entropy(end_logits, e)) / 2
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        em = evaluate(model, dev_dl)
        print(f"epoch {epoch + 1} loss {tot / len(train_dl):.4f} dev_em {em:.3f} ({time.time() - t0:.1f}s)")
    print(f"METRIC dev_em={em:.4f}")


if __name__ == "__main__":
    main()
