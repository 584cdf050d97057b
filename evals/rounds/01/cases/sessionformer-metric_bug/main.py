import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

import settings as S
from events import EVENTS, make_sessions, pad_batch
from metrics import binary_accuracy, roc_auc
from model import SessionEncoder


def evaluate(model, loader):
    model.eval()
    probs, labels = [], []
    for x, y in loader:
        probs.append(model.predict_proba(x))
        labels.append(y)
    probs, labels = torch.cat(probs), torch.cat(labels)
    return binary_accuracy(probs, labels), roc_auc(probs, labels)


def main():
    torch.manual_seed(S.SEED)
    torch.set_num_threads(1)
    tr = list(zip(*make_sessions(S.N_TRAIN, S.MIN_LEN, S.MAX_LEN, S.SEED)))
    va = list(zip(*make_sessions(S.N_VAL, S.MIN_LEN, S.MAX_LEN, S.SEED + 1)))
    print(f"train={len(tr)} val={len(va)} positive_rate={sum(y for _, y in tr) / len(tr):.3f}")
    g = torch.Generator().manual_seed(S.SEED)
    train_dl = DataLoader(tr, batch_size=S.BATCH_SIZE, shuffle=True, collate_fn=pad_batch, generator=g)
    val_dl = DataLoader(va, batch_size=256, collate_fn=pad_batch)

    model = SessionEncoder(len(EVENTS), S.D_MODEL, S.N_HEADS, S.N_LAYERS, S.FF_DIM, S.DROPOUT)
    opt = torch.optim.AdamW(model.parameters(), lr=S.LR, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / S.WARMUP_STEPS))
    t0 = time.time()
    for epoch in range(1, S.EPOCHS + 1):
        model.train()
        tot = n = 0
        for x, y in train_dl:
            loss = F.binary_cross_entropy_with_logits(model(x), y)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            tot += loss.item() * len(y)
            n += len(y)
        acc, auc = evaluate(model, val_dl)
        print(f"epoch {epoch} loss {tot / n:.4f} val_acc {acc:.4f} val_auc {auc:.4f} [{time.time() - t0:.1f}s]")
    acc, auc = evaluate(model, val_dl)
    print(f"val_auc={auc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
