import argparse
import json
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from seqdata import padding_mask, sample_batch


class RunningSumNet(nn.Module):
    def __init__(self, modulus, emb=16, hidden=96):
        super().__init__()
        self.embed = nn.Embedding(11, emb, padding_idx=0)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, modulus)

    def forward(self, tokens):
        h, _ = self.rnn(self.embed(tokens))
        return self.out(h)


def token_loss(logits, targets, pad):
    ce = F.cross_entropy(logits.transpose(1, 2), targets, reduction="none")  # [B, T]
    weight = pad.float()
    return (ce * weight).sum() / weight.sum().clamp(min=1.0)


@torch.no_grad()
def token_accuracy(model, tokens, targets, lengths):
    model.eval()
    keep = ~padding_mask(lengths, tokens.shape[1])
    pred = model(tokens).argmax(-1)
    return ((pred == targets) & keep).sum().item() / keep.sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--curriculum", default="curriculum.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.curriculum))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    gen = torch.Generator().manual_seed(cfg["seed"])
    val_gen = torch.Generator().manual_seed(12345)
    val = sample_batch(cfg["val_size"], cfg["val_len"], cfg["modulus"], val_gen)

    model = RunningSumNet(cfg["modulus"], cfg["emb"], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    t0 = time.time()
    for epoch, max_len in enumerate(cfg["stages"]):
        model.train()
        for _ in range(cfg["batches_per_epoch"]):
            tokens, targets, lengths = sample_batch(cfg["batch_size"], max_len, cfg["modulus"], gen)
            pad = padding_mask(lengths, max_len)
            loss = token_loss(model(tokens), targets, pad)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        print(f"epoch {epoch} len<={max_len:2d}  loss {loss.item():.4f}  val_token_acc {token_accuracy(model, *val):.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC val_token_acc={token_accuracy(model, *val):.4f}")


if __name__ == "__main__":
    main()
