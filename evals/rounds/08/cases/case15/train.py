import argparse
import json

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from sessions import LABELS, SessionDataset, make_sessions


class DilatedCNN(nn.Module):
    def __init__(self, vocab, emb, channels, n_classes, dropout):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.convs = nn.ModuleList([
            nn.Conv1d(emb, channels, 3, padding=1, dilation=1),
            nn.Conv1d(channels, channels, 3, padding=2, dilation=2),
            nn.Conv1d(channels, channels, 3, padding=4, dilation=4),
        ])
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(channels, n_classes)

    def forward(self, x):
        pad = (x == 0).unsqueeze(1)
        h = self.emb(x).transpose(1, 2)
        for conv in self.convs:
            h = torch.relu(conv(h))
        h = h.masked_fill(pad, float("-inf")).amax(dim=2)
        return self.fc(self.drop(h))


def macro_f1(pred, y, k):
    f1s = []
    for c in range(k):
        tp = ((pred == c) & (y == c)).sum()
        fp = ((pred == c) & (y != c)).sum()
        fn = ((pred != c) & (y == c)).sum()
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return float(np.mean(f1s))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/base.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    dc, mc, tc = cfg["data"], cfg["model"], cfg["train"]
    seqs, labels = make_sessions(dc["n_train"] + dc["n_val"], dc["vocab"], dc["min_len"], dc["max_len"], dc["seed"])
    n_tr = dc["n_train"]
    train_ds = SessionDataset(seqs[:n_tr], labels[:n_tr], dc["max_len"])
    val_ds = SessionDataset(seqs[n_tr:], labels[n_tr:], dc["max_len"])
    train_dl = DataLoader(train_ds, batch_size=tc["micro_batch"], shuffle=True,
                          generator=torch.Generator().manual_seed(seed))
    val_dl = DataLoader(val_ds, batch_size=256)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = tc["amp"] and device.type == "cuda"
    model = DilatedCNN(dc["vocab"], mc["emb"], mc["channels"], len(LABELS), mc["dropout"]).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=tc["lr"], weight_decay=tc["weight_decay"])
    scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
    criterion = nn.CrossEntropyLoss()
    accum = tc["accum_steps"]

    for epoch in range(1, tc["epochs"] + 1):
        model.train()
        running, n_upd = 0.0, 0
        for micro_step, (x, y) in enumerate(train_dl):
            x, y = x.to(device), y.to(device)
            with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
                loss = criterion(model(x), y) / accum
            scaler.scale(loss).backward()
            running += loss.item()
            if (micro_step + 1) % accum == 0:
                optimizer.zero_grad(set_to_none=True)
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), tc["max_grad_norm"])
                scaler.step(optimizer)
                scaler.update()
                n_upd += 1

        model.eval()
        preds, ys = [], []
        with torch.no_grad():
            for x, y in val_dl:
                preds.append(model(x.to(device)).argmax(1).cpu())
                ys.append(y)
        preds, ys = torch.cat(preds).numpy(), torch.cat(ys).numpy()
        acc = float((preds == ys).mean())
        f1 = macro_f1(preds, ys, len(LABELS))
        print(f"epoch {epoch} updates {n_upd} train_loss {running / max(n_upd, 1):.4f} val_acc {acc:.4f} val_f1 {f1:.4f}")

    print(f"val_acc={acc:.4f}")
    print(f"val_macro_f1={f1:.4f}")


if __name__ == "__main__":
    main()
