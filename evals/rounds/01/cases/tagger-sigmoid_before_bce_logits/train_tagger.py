import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from metrics import f1_scores, mean_average_precision
from model import TicketTagger
from tickets import TAGS, make_corpus, tfidf


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--docs", type=int, default=6000)
    p.add_argument("--vocab", type=int, default=600)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--bs", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=2024)
    return p.parse_args()


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    counts, labels = make_corpus(args.docs, args.vocab, args.seed)
    n_val = args.docs // 5
    x_tr, idf = tfidf(counts[n_val:])
    x_va, _ = tfidf(counts[:n_val], idf)
    y_tr, y_va = labels[n_val:], labels[:n_val]
    print(f"train={len(x_tr)} val={len(x_va)} tags/doc={y_tr.sum(1).mean():.2f}")

    # rarer tags get a larger positive weight
    pos_rate = y_tr.mean(0)
    pos_weight = torch.tensor(np.clip((1 - pos_rate) / pos_rate, 1.0, 10.0) ** 0.5, dtype=torch.float32)

    g = torch.Generator().manual_seed(args.seed)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(x_tr), torch.from_numpy(y_tr)),
                          batch_size=args.bs, shuffle=True, generator=g)
    model = TicketTagger(args.vocab, len(TAGS), args.hidden)
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    xv = torch.from_numpy(x_va)
    t0 = time.time()
    for epoch in range(1, args.epochs + 1):
        model.train()
        running = 0.0
        for xb, yb in train_dl:
            loss = criterion(model.predict_proba(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(xb)
        model.eval()
        with torch.no_grad():
            probs = model.predict_proba(xv).numpy()
        micro, macro = f1_scores(probs, y_va)
        print(f"epoch {epoch:2d} loss {running / len(x_tr):.4f} micro_f1 {micro:.4f} macro_f1 {macro:.4f} "
              f"mAP {mean_average_precision(probs, y_va):.4f} [{time.time() - t0:.1f}s]")

    micro, macro = f1_scores(probs, y_va)
    print(f"val_mAP={mean_average_precision(probs, y_va):.4f}")
    print(f"val_macro_f1={macro:.4f}")
    print(f"val_micro_f1={micro:.4f}")


if __name__ == "__main__":
    main()
