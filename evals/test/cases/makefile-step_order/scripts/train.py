"""Train GlyphCNN with gradient accumulation.

Run from the repository root (see Makefile):
    python scripts/train.py --config configs/base.yaml
"""
import argparse
import sys
import time
from pathlib import Path

import torch
import torch.nn as nn
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from glyphs.data import make_loaders  # noqa: E402
from glyphs.model import GlyphCNN  # noqa: E402


def evaluate(model, loader, criterion):
    model.eval()
    n_correct, n_seen, loss_sum = 0, 0, 0.0
    with torch.no_grad():
        for images, targets in loader:
            out = model(images)
            loss_sum += criterion(out, targets).item() * targets.size(0)
            n_correct += (out.argmax(1) == targets).sum().item()
            n_seen += targets.size(0)
    return loss_sum / n_seen, n_correct / n_seen


def train_one_epoch(model, loader, optimizer, criterion, accum_steps, log_every, epoch):
    model.train()
    running = 0.0
    optimizer.zero_grad()
    for i, (images, targets) in enumerate(loader):
        out = model(images)
        loss = criterion(out, targets) / accum_steps
        loss.backward()
        running += loss.item()

        if (i + 1) % accum_steps == 0:
            optimizer.step()
        optimizer.zero_grad()

        if (i + 1) % log_every == 0:
            print(f"[epoch {epoch}] micro-batch {i + 1}/{len(loader)} loss {running * accum_steps / log_every:.4f}")
            running = 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/base.yaml")
    args = ap.parse_args()

    with open(args.config) as fh:
        cfg = yaml.safe_load(fh)

    torch.manual_seed(cfg["seed"])
    train_loader, val_loader, test_loader = make_loaders(cfg, cfg["seed"])

    model = GlyphCNN(**cfg["model"])
    tcfg = cfg["train"]
    optimizer = torch.optim.SGD(model.parameters(), lr=tcfg["lr"], momentum=tcfg["momentum"],
                                weight_decay=tcfg["weight_decay"])
    criterion = nn.CrossEntropyLoss()

    ckpt_dir = Path(cfg["checkpoint_dir"])
    ckpt_dir.mkdir(exist_ok=True)
    best_acc = 0.0
    for epoch in range(1, tcfg["epochs"] + 1):
        t0 = time.time()
        train_one_epoch(model, train_loader, optimizer, criterion,
                        tcfg["accum_steps"], tcfg["log_every"], epoch)
        val_loss, val_acc = evaluate(model, val_loader, criterion)
        print(f"epoch {epoch} done in {time.time() - t0:.1f}s  val_loss={val_loss:.4f}  val_acc={val_acc:.4f}")
        if val_acc > best_acc:
            best_acc = val_acc
            torch.save(model.state_dict(), ckpt_dir / "glyphcnn_best.pt")

    model.load_state_dict(torch.load(ckpt_dir / "glyphcnn_best.pt"))
    test_loss, test_acc = evaluate(model, test_loader, criterion)
    print(f"test_loss={test_loss:.4f}  test_acc={test_acc:.4f}")


if __name__ == "__main__":
    main()
