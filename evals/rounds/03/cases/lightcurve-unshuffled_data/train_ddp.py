"""Variable-star classifier, DistributedDataParallel over gloo.

    torchrun --nproc_per_node=4 train_ddp.py --config configs/default.json   # cluster
    python train_ddp.py --config configs/default.json                      # one process
"""
import argparse
import json

import torch
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import dist_utils
from lightcurves import CLASSES, catalogue
from model import CurveNet


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    stats = torch.zeros(2)
    for x, y in loader:
        stats += torch.tensor([(model(x).argmax(1) == y).sum().item(), len(y)])
    dist_utils.all_reduce_sum(stats)
    model.train()
    return (stats[0] / stats[1]).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/default.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed

    rank, world = dist_utils.setup("gloo")
    torch.manual_seed(cfg["seed"] + rank)

    train_set = catalogue(cfg["per_class_train"], seed=cfg["seed"])
    val_set = catalogue(cfg["per_class_val"], seed=999)
    per_rank_batch = cfg["batch_size"] // world
    train_loader = dist_utils.build_loader(train_set, per_rank_batch, rank, world, seed=cfg["seed"])
    val_loader = dist_utils.build_loader(val_set, 256, rank, world)

    model = DDP(CurveNet(len(CLASSES), cfg["width"]))
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        train_loader.sampler.set_epoch(epoch)        # new order every epoch
        total, n = 0.0, 0
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(y)
            n += len(y)
        acc = evaluate(model, val_loader)
        if rank == 0:
            print(f"epoch {epoch + 1}  train_loss {total / n:.4f}  val_acc {acc:.4f}")

    acc = evaluate(model, val_loader)
    if rank == 0:
        print(f"val_acc={acc:.4f}")
    dist_utils.cleanup()


if __name__ == "__main__":
    main()
