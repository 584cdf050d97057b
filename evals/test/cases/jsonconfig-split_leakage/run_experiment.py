import argparse
import json
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Subset

from model import BagClassifier
from tickets import TicketDataset, collate_bag, make_corpus, split_ids


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    loss = 0.0
    with torch.no_grad():
        for tokens, offsets, queue in loader:
            logits = model(tokens, offsets)
            loss += F.cross_entropy(logits, queue, reduction="sum").item()
            correct += (logits.argmax(-1) == queue).sum().item()
            total += queue.numel()
    return loss / total, correct / total


def run(cfg):
    torch.manual_seed(cfg["seed"])
    d, m, o = cfg["data"], cfg["model"], cfg["optim"]

    tickets, queues = make_corpus(d["n_tickets"], d["vocab_size"], d["n_queues"], cfg["seed"])
    corpus = TicketDataset(tickets, queues)
    train_ids, val_ids, test_ids = split_ids(tickets, d["min_tokens"], d["test_size"], d["val_size"],
                                             cfg["seed"] + 1)
    print(f"corpus {len(corpus)} tickets | train {len(train_ids)} val {len(val_ids)} test {len(test_ids)}")

    gen = torch.Generator().manual_seed(cfg["seed"])
    train_loader = DataLoader(Subset(corpus, train_ids), batch_size=o["batch_size"], shuffle=True,
                              collate_fn=collate_bag, generator=gen)
    val_loader = DataLoader(Subset(corpus, val_ids), batch_size=256, collate_fn=collate_bag)
    test_loader = DataLoader(Subset(corpus, test_ids), batch_size=256, collate_fn=collate_bag)

    model = BagClassifier(d["vocab_size"], d["n_queues"], **m)
    opt = torch.optim.Adam(model.parameters(), lr=o["lr"])

    for epoch in range(1, o["epochs"] + 1):
        model.train()
        t0, losses = time.time(), []
        for tokens, offsets, queue in train_loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(tokens, offsets), queue)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        val_loss, val_acc = evaluate(model, val_loader)
        print(f"epoch {epoch:2d}  train_loss {np.mean(losses):.4f}  val_loss {val_loss:.4f}  "
              f"val_acc {val_acc:.4f}  ({time.time() - t0:.1f}s)")

    test_loss, test_acc = evaluate(model, test_loader)
    print(f"[{cfg['name']}] test_loss {test_loss:.4f}  test_acc {test_acc:.4f}")
    return test_acc


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/experiment.json")
    args = parser.parse_args()
    with open(args.config) as f:
        run(json.load(f))
