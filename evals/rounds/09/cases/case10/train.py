import argparse
import copy
import json
import os

import torch
import torch.nn.functional as F

from brackets import encode, make_split
from model import BracketClassifier


def accuracy(model, data, bs=500):
    model.eval()
    hit = 0
    with torch.no_grad():
        for i in range(0, len(data), bs):
            ids, pad, y = encode(data[i:i + bs])
            hit += (model(ids, pad).argmax(-1) == y).sum().item()
    return hit / len(data)


def average_checkpoints(paths, template):
    avg = copy.deepcopy(template)
    states = [torch.load(p) for p in paths]
    with torch.no_grad():
        for name, p in avg.named_parameters():
            p.copy_(torch.stack([s[name] for s in states]).mean(0))
    return avg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    train = make_split(cfg["n_train"], cfg["max_len"], seed=cfg["seed"])
    val = make_split(cfg["n_val"], cfg["max_len"], seed=cfg["seed"] + 999)
    model = BracketClassifier(cfg["max_len"], cfg["d_model"], cfg["heads"], cfg["layers"], cfg["dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["max_lr"], weight_decay=0.01)
    steps_per_epoch = (len(train) + cfg["batch_size"] - 1) // cfg["batch_size"]
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg["max_lr"], epochs=cfg["epochs"],
                                                steps_per_epoch=steps_per_epoch)
    os.makedirs(cfg["ckpt_dir"], exist_ok=True)
    saved = []
    g = torch.Generator().manual_seed(cfg["seed"])

    for epoch in range(cfg["epochs"]):
        model.train()
        order = torch.randperm(len(train), generator=g).tolist()
        for i in range(0, len(order), cfg["batch_size"]):
            ids, pad, y = encode([train[j] for j in order[i:i + cfg["batch_size"]]])
            loss = F.nll_loss(model(ids, pad), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        acc = accuracy(model, val)
        print(f"epoch {epoch + 1:2d} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.2e} val_acc {acc:.4f}")
        if epoch >= cfg["epochs"] - cfg["average_last"]:
            path = os.path.join(cfg["ckpt_dir"], f"epoch{epoch + 1}.pt")
            torch.save(model.state_dict(), path)
            saved.append(path)

    averaged = average_checkpoints(saved, model)
    print(f"last_epoch_val_acc={accuracy(model, val):.4f}")
    print(f"val_acc={accuracy(averaged, val):.4f}")


if __name__ == "__main__":
    main()
