import argparse
from dataclasses import fields

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from .config import Config
from .data import SonarTiles
from .metrics import class_iou, flatten_logits, flatten_targets
from .model import MeadowNet


def get_config():
    cfg = Config()
    parser = argparse.ArgumentParser(description="train the seagrass segmenter")
    for f in fields(Config):
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=f.type, default=getattr(cfg, f.name))
    ns = parser.parse_args()
    return Config(**{f.name: getattr(ns, f.name) for f in fields(Config)})


def evaluate(model, loader):
    model.eval()
    inter = union = 0
    with torch.no_grad():
        for x, y in loader:
            i, u = class_iou(model(x), y)
            inter += i
            union += u
    return inter / max(union, 1)


def main():
    cfg = get_config()
    torch.manual_seed(cfg.seed)
    train_ds = SonarTiles(cfg.n_train, cfg.tile, seed=cfg.seed)
    val_ds = SonarTiles(cfg.n_val, cfg.tile, seed=cfg.seed + 1000)
    train_dl = DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=64)

    model = MeadowNet(cfg.width, cfg.n_classes)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=1e-4)

    for epoch in range(1, cfg.epochs + 1):
        model.train()
        running = 0.0
        for x, y in train_dl:
            logits = model(x)
            loss = F.cross_entropy(flatten_logits(logits), flatten_targets(y))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            running += loss.item()
        iou = evaluate(model, val_dl)
        print(f"epoch {epoch:02d} loss {running / len(train_dl):.4f} val_iou {iou:.3f}")

    print(f"val_iou={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
