import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import BLANK, FRAME, NUM_CLASSES, ToneDataset, pad_collate
from model import ConvRecognizer


def greedy_decode(logits, lengths):
    """Best path: argmax per frame, merge repeats, drop blanks."""
    best = logits.argmax(dim=-1)
    out = []
    for seq, n in zip(best.tolist(), lengths.tolist()):
        prev, hyp = BLANK, []
        for s in seq[:n]:
            if s != prev and s != BLANK:
                hyp.append(s)
            prev = s
        out.append(hyp)
    return out


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            cur = min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
            prev, d[j] = d[j], cur
    return d[len(b)]


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    errors, total, exact, n = 0, 0, 0, 0
    for x, x_lens, y, y_lens in loader:
        hyps = greedy_decode(model(x), x_lens)
        refs = torch.split(y, y_lens.tolist())
        for hyp, ref in zip(hyps, refs):
            ref = ref.tolist()
            e = edit_distance(hyp, ref)
            errors += e
            total += len(ref)
            exact += int(e == 0)
            n += 1
    return errors / total, exact / n


def main():
    p = argparse.ArgumentParser(description="CTC keypad-tone recognizer")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--n-train", type=int, default=1200)
    p.add_argument("--n-val", type=int, default=300)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--eval-every", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    torch.manual_seed(args.seed)
    train_set = ToneDataset(args.n_train, seed=1000 + args.seed)
    val_set = ToneDataset(args.n_val, seed=999)
    g = torch.Generator().manual_seed(args.seed)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, generator=g,
                              collate_fn=pad_collate, num_workers=args.workers,
                              persistent_workers=args.workers > 0)
    val_loader = DataLoader(val_set, batch_size=128, collate_fn=pad_collate)

    model = ConvRecognizer(FRAME // 2 + 1, NUM_CLASSES)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)

    for epoch in range(1, args.epochs + 1):
        model.train()
        t0, running = time.time(), []
        for x, x_lens, y, y_lens in train_loader:
            logits = model(x)
            T = logits.size(1)
            # ctc_loss wants (frames, batch, classes)
            log_probs = logits.log_softmax(dim=-1).reshape(T, -1, NUM_CLASSES)
            loss = F.ctc_loss(log_probs, y, x_lens, y_lens, blank=BLANK, zero_infinity=True)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running.append(loss.item())
        msg = f"epoch {epoch:2d} ctc {np.mean(running):.3f}"
        if epoch % args.eval_every == 0:
            cer, seq_acc = evaluate(model, val_loader)
            msg += f" val_cer {cer:.3f} seq_acc {seq_acc:.3f}"
        print(msg + f" ({time.time() - t0:.1f}s)")

    cer, seq_acc = evaluate(model, val_loader)
    print(f"val_seq_acc={seq_acc:.4f}")
    print(f"val_cer={cer:.4f}")


if __name__ == "__main__":
    main()
