import argparse
import copy

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from detector import TinyDetector
from shapes import CLASSES, box_iou, render


class Trainer:
    def __init__(self, model, lr, patience):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.patience = patience
        self.best_score, self.best_state, self.bad_epochs = -1.0, None, 0

    def loss(self, batch):
        x, y, b = batch
        logits, box = self.model(x)
        return F.cross_entropy(logits, y) + 5.0 * F.smooth_l1_loss(box, b, beta=0.05)

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for batch in loader:
            loss = self.loss(batch)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item() * len(batch[0])
        return total / len(loader.dataset)

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        hits = cls_ok = n = 0
        iou_sum = 0.0
        for x, y, b in loader:
            logits, box = self.model(x)
            iou = box_iou(box, b)
            ok = logits.argmax(dim=1) == y
            hits += ((iou > 0.5) & ok).sum().item()
            cls_ok += ok.sum().item()
            iou_sum += iou.sum().item()
            n += len(y)
        return {"det_acc": hits / n, "miou": iou_sum / n, "cls_acc": cls_ok / n}

    def early_stop(self, score):
        if score > self.best_score:
            self.best_score, self.bad_epochs = score, 0
            self.best_state = copy.deepcopy(self.model.state_dict())
            return False
        self.bad_epochs += 1
        return self.bad_epochs >= self.patience

    def restore_best(self):
        if self.best_state is not None:
            self.model.load_state_dict(self.best_state)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--patience", type=int, default=4)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--width", type=int, default=32, help="conv channels of the backbone")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr, btr = render(3000, seed=1)
    xva, yva, bva = render(600, seed=2)
    train_dl = DataLoader(TensorDataset(xtr, ytr, btr), batch_size=64, shuffle=True)
    val_dl = DataLoader(TensorDataset(xva, yva, bva), batch_size=300)

    model = TinyDetector(num_classes=len(CLASSES))
    trainer = Trainer(model, lr=args.lr, patience=args.patience)
    model.set_width(args.width)

    for epoch in range(1, args.epochs + 1):
        tl = trainer.train_epoch(train_dl)
        m = trainer.evaluate(val_dl)
        print(f"epoch {epoch}: loss={tl:.4f} det_acc={m['det_acc']:.3f} miou={m['miou']:.3f}")
        if trainer.early_stop(m["det_acc"]):
            print(f"early stop at epoch {epoch}")
            break

    trainer.restore_best()
    m = trainer.evaluate(val_dl)
    print(f"val_miou={m['miou']:.4f}")
    print(f"val_cls_acc={m['cls_acc']:.4f}")
    print(f"val_det_acc={m['det_acc']:.4f}")


if __name__ == "__main__":
    main()
