import argparse
import os

import torch
import torch.nn.functional as F

import corpus
from model import GRULanguageModel


def collate(lines):
    """Right-pad a list of token lists; returns inputs, next-token targets and lengths."""
    lengths = torch.tensor([len(l) - 1 for l in lines])
    width = int(lengths.max())
    inputs = torch.full((len(lines), width), corpus.PAD, dtype=torch.long)
    targets = torch.full((len(lines), width), corpus.PAD, dtype=torch.long)
    for i, line in enumerate(lines):
        seq = torch.tensor(line)
        inputs[i, :len(line) - 1] = seq[:-1]
        targets[i, :len(line) - 1] = seq[1:]
    return inputs, targets, lengths


def sequence_loss(logits, targets):
    token_nll = F.cross_entropy(logits.transpose(1, 2), targets, reduction="none")   # (B, T)
    mask = (targets == corpus.PAD).float()
    return (token_nll * mask).sum() / mask.sum().clamp(min=1.0)


def batches(lines, batch_size, shuffle, generator=None):
    order = torch.randperm(len(lines), generator=generator) if shuffle else torch.arange(len(lines))
    for i in range(0, len(order), batch_size):
        yield collate([lines[j] for j in order[i:i + batch_size]])


@torch.no_grad()
def evaluate(model, lines, batch_size=256):
    model.eval()
    total_loss, n_batches, correct, counted = 0.0, 0, 0, 0
    for inputs, targets, lengths in batches(lines, batch_size, shuffle=False):
        logits = model(inputs)
        total_loss += sequence_loss(logits, targets).item()
        n_batches += 1
        positions = torch.arange(targets.size(1)).unsqueeze(0)
        real = positions < lengths.unsqueeze(1)
        correct += ((logits.argmax(-1) == targets) & real).sum().item()
        counted += real.sum().item()
    return total_loss / n_batches, correct / counted


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="data")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    for split, n, seed in (("train", 3000, 10), ("valid", 500, 20)):
        path = os.path.join(args.data, f"{split}.txt")
        if not os.path.exists(path):
            corpus.build(path, n, seed)
    train_lines = corpus.read_lines(os.path.join(args.data, "train.txt"))
    valid_lines = corpus.read_lines(os.path.join(args.data, "valid.txt"))

    model = GRULanguageModel(corpus.VOCAB_SIZE, pad_id=corpus.PAD)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    gen = torch.Generator().manual_seed(args.seed)

    for epoch in range(args.epochs):
        model.train()
        for step, (inputs, targets, _) in enumerate(batches(train_lines, args.batch_size, True, gen)):
            loss = sequence_loss(model(inputs), targets)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        val_loss, val_acc = evaluate(model, valid_lines)
        print(f"epoch {epoch + 1} train_loss {loss.item():.3f} val_loss {val_loss:.3f} val_token_acc {val_acc:.3f}")


if __name__ == "__main__":
    main()
