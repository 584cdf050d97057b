import argparse
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from drafts import make_corpus, padding_mask


class PickGRU(nn.Module):
    def __init__(self, colours, emb, hidden):
        super().__init__()
        self.emb = nn.Embedding(colours + 1, emb, padding_idx=0)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, colours + 1)

    def forward(self, picks):
        h, _ = self.rnn(self.emb(picks))
        return self.out(h)


def shift_for_next_pick(batch, lengths):
    """Inputs are picks 0..T-2, targets picks 1..T-1; the target side loses one position."""
    inputs, targets = batch[:, :-1], batch[:, 1:]
    tgt_lengths = lengths - 1
    return inputs, targets, tgt_lengths


def masked_token_loss(logits, targets, weight):
    ce = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), reduction="none")
    weight = weight.reshape(-1).float()
    return (ce * weight).sum() / weight.sum().clamp(min=1)


def evaluate(model, data, lengths):
    model.eval()
    with torch.no_grad():
        inp, tgt, tl = shift_for_next_pick(data, lengths)
        pred = model(inp).argmax(-1)
        real = ~torch.from_numpy(padding_mask(tl.numpy(), tgt.size(1)))
        acc = ((pred == tgt) & real).sum().item() / real.sum().item()
    model.train()
    return acc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="loom.json")
    cfg = json.load(open(ap.parse_args().config))
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)

    tr, trl = make_corpus(cfg["n_train"], cfg["colours"], cfg["min_len"], cfg["max_len"], seed=cfg["seed"] + 1)
    va, val = make_corpus(cfg["n_val"], cfg["colours"], cfg["min_len"], cfg["max_len"], seed=999)
    tr, trl, va, val = map(torch.from_numpy, (tr, trl, va, val))

    model = PickGRU(cfg["colours"], cfg["emb"], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(tr))
        for i in range(0, len(perm), bs):
            b = perm[i:i + bs]
            inp, tgt, tl = shift_for_next_pick(tr[b], trl[b])
            weight = torch.from_numpy(padding_mask(tl.numpy(), tgt.size(1)))
            loss = masked_token_loss(model(inp), tgt, weight)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        print(f"epoch {epoch + 1} loss={loss.item():.4f} val_next_acc={evaluate(model, va, val):.4f}")
    print(f"val_next_acc={evaluate(model, va, val):.4f}")


if __name__ == "__main__":
    main()
