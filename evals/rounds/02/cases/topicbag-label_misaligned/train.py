import argparse
import time

import tomllib
import torch
import torch.nn as nn
from corpus import TOPICS, make_corpus
from model import BagClassifier
from textdata import BucketSampler, TicketDataset, Vocab, encode_corpus, pad_collate
from torch.utils.data import DataLoader


def build_loaders(cfg):
    d = cfg["data"]
    train_texts, train_labels = make_corpus(d["n_train"], d["min_len"], d["max_len"], seed=d["seed"])
    val_texts, val_labels = make_corpus(d["n_val"], d["min_len"], d["max_len"], seed=d["seed"] + 1)
    vocab = Vocab(train_texts, min_freq=d["min_freq"])

    train_ds = TicketDataset(encode_corpus(train_texts, vocab, d["max_len"]), train_labels)
    val_ds = TicketDataset(encode_corpus(val_texts, vocab, d["max_len"]), val_labels)

    bs = cfg["train"]["batch_size"]
    train_dl = DataLoader(train_ds, batch_sampler=BucketSampler(len(train_ds), bs, seed=cfg["train"]["seed"]),
                          collate_fn=pad_collate)
    val_dl = DataLoader(val_ds, batch_sampler=BucketSampler(len(val_ds), 256, shuffle=False),
                        collate_fn=pad_collate)
    return vocab, train_dl, val_dl


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += (model(x).argmax(dim=1) == y).sum().item()
        total += len(y)
    model.train()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-c", "--config", default="topicbag.toml")
    ap.add_argument("--seed", type=int, default=None, help="override [train].seed")
    args = ap.parse_args()
    with open(args.config, "rb") as fh:
        cfg = tomllib.load(fh)
    if args.seed is not None:
        cfg["train"]["seed"] = args.seed
    torch.manual_seed(cfg["train"]["seed"])
    torch.set_num_threads(1)

    vocab, train_dl, val_dl = build_loaders(cfg)
    print(f"vocab={len(vocab)} train_batches={len(train_dl)}")
    model = BagClassifier(len(vocab), len(TOPICS), **cfg["model"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["train"]["lr"])
    loss_fn = nn.CrossEntropyLoss()

    t0 = time.time()
    for epoch in range(cfg["train"]["epochs"]):
        seen = correct = 0
        tot_loss = 0.0
        for x, y in train_dl:
            logits = model(x)
            loss = loss_fn(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot_loss += loss.item() * len(y)
            correct += (logits.argmax(1) == y).sum().item()
            seen += len(y)
        print(f"epoch {epoch + 1}: loss={tot_loss / seen:.4f} train_acc={correct / seen:.3f} "
              f"val_acc={accuracy(model, val_dl):.3f} ({time.time() - t0:.1f}s)")

    print(f"METRIC val_acc={accuracy(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
