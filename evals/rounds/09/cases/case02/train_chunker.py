import argparse

import torch
import torch.nn.functional as F

from corpus import TAGS, build, spans
from model import CharCNNTagger

MAX_CHARS = 10


def encode(data, char_vocab):
    """Pad words to MAX_CHARS characters; sentences are padded later per batch."""
    out = []
    for words, tags in data:
        ids = [[char_vocab.get(ch, 1) for ch in w[:MAX_CHARS]] + [0] * (MAX_CHARS - len(w[:MAX_CHARS])) for w in words]
        out.append((ids, [TAGS.index(t) for t in tags]))
    return out


def batches(encoded, size, shuffle, gen=None):
    order = torch.randperm(len(encoded), generator=gen).tolist() if shuffle else range(len(encoded))
    order = list(order)
    for i in range(0, len(order), size):
        chunk = [encoded[j] for j in order[i:i + size]]
        t = max(len(c[1]) for c in chunk)
        chars = torch.zeros(len(chunk), t, MAX_CHARS, dtype=torch.long)
        tags = torch.zeros(len(chunk), t, dtype=torch.long)
        pad_mask = torch.ones(len(chunk), t, dtype=torch.bool)
        for k, (ids, tg) in enumerate(chunk):
            chars[k, : len(tg)] = torch.tensor(ids)
            tags[k, : len(tg)] = torch.tensor(tg)
            pad_mask[k, : len(tg)] = False
        yield chars, tags, pad_mask


def masked_token_loss(logits, tags, mask):
    per_token = F.cross_entropy(logits.transpose(1, 2), tags, reduction="none")
    mask = mask.float()
    return (per_token * mask).sum() / mask.sum().clamp_min(1.0)


def span_f1(model, encoded):
    model.eval()
    tp = n_pred = n_gold = 0
    with torch.no_grad():
        for chars, tags, pad_mask in batches(encoded, 128, shuffle=False):
            pred = model(chars).argmax(-1)
            for k in range(len(tags)):
                n = int((~pad_mask[k]).sum())
                p = spans([TAGS[i] for i in pred[k, :n].tolist()])
                g = spans([TAGS[i] for i in tags[k, :n].tolist()])
                tp += len(p & g); n_pred += len(p); n_gold += len(g)
    model.train()
    prec, rec = tp / max(n_pred, 1), tp / max(n_gold, 1)
    return 2 * prec * rec / max(prec + rec, 1e-9)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_raw, val_raw = build(1500, seed=args.seed), build(300, seed=10_000 + args.seed)
    chars = sorted({ch for ws, _ in train_raw for w in ws for ch in w})
    char_vocab = {ch: i + 2 for i, ch in enumerate(chars)}  # 0 pad, 1 unknown
    train, val = encode(train_raw, char_vocab), encode(val_raw, char_vocab)

    model = CharCNNTagger(len(char_vocab) + 2, len(TAGS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    gen = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        total = 0.0
        for chars_b, tags_b, pad_mask in batches(train, args.batch_size, True, gen):
            loss = masked_token_loss(model(chars_b), tags_b, pad_mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        if (epoch + 1) % 4 == 0:
            print(f"epoch {epoch + 1} loss {total:.2f} val_span_f1 {span_f1(model, val):.4f}")

    print(f"val_span_f1={span_f1(model, val):.4f}")


if __name__ == "__main__":
    main()
