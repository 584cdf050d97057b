import argparse
import logging

import torch
import torch.nn.functional as F
import yaml
from torch.utils.data import DataLoader

from beatnet.hooks import build_hooks
from beatnet.model import BeatNet
from beatnet.synth import CLASSES, make_beats

log = logging.getLogger("beatnet")


def build_optimizer(model, ocfg):
    if ocfg["name"] == "sgd":
        return torch.optim.SGD(model.parameters(), lr=ocfg["lr"], momentum=ocfg["momentum"],
                               nesterov=ocfg.get("nesterov", False), weight_decay=ocfg["weight_decay"])
    if ocfg["name"] == "adamw":
        return torch.optim.AdamW(model.parameters(), lr=ocfg["lr"], weight_decay=ocfg["weight_decay"])
    raise ValueError(f"unknown optimizer {ocfg['name']}")


@torch.no_grad()
def validate(model, loader):
    model.eval()
    n_ok, n, loss = 0, 0, 0.0
    for beats, kind in loader:
        logits = model(beats)
        loss += F.cross_entropy(logits, kind, reduction="sum").item()
        n_ok += (logits.argmax(1) == kind).sum().item()
        n += kind.numel()
    return loss / n, n_ok / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/ecg_small.yaml")
    args = ap.parse_args()
    with open(args.config) as fh:
        cfg = yaml.safe_load(fh)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(name)s] %(message)s", datefmt="%H:%M:%S")

    torch.manual_seed(cfg["seed"])
    d = cfg["data"]
    train_ds = make_beats(d["n_train"], d["beat_len"], d["noise_std"], d["baseline_wander"], cfg["seed"])
    val_ds = make_beats(d["n_val"], d["beat_len"], d["noise_std"], d["baseline_wander"], cfg["seed"] + 7)
    sched = cfg["schedule"]
    train_loader = DataLoader(train_ds, batch_size=sched["batch_size"], shuffle=True,
                              generator=torch.Generator().manual_seed(cfg["seed"]))
    val_loader = DataLoader(val_ds, batch_size=300)

    model = BeatNet(len(CLASSES), **cfg["model"])
    optimizer = build_optimizer(model, cfg["optim"])
    hooks = build_hooks(cfg)

    step = 0
    for epoch in range(1, sched["epochs"] + 1):
        model.train()
        for beats, kind in train_loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(beats), kind)
            loss.backward()
            for hook in hooks:
                hook(model, step)
            optimizer.step()
            step += 1
        val_loss, val_acc = validate(model, val_loader)
        log.info("epoch %2d | last_batch_loss %.4f | val_loss %.4f | val_acc %.4f",
                 epoch, loss.item(), val_loss, val_acc)

    torch.save(model.state_dict(), f"{cfg['run_name']}.pt")
    log.info("done: %s val_acc=%.4f", cfg["run_name"], val_acc)


if __name__ == "__main__":
    main()
