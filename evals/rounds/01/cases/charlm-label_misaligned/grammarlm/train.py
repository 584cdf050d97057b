import argparse
import math
import time

import tomllib
import torch
from torch.utils.data import DataLoader, RandomSampler

from .data import NextCharWindows, Vocab
from .grammar import corpus
from .losses import lm_loss, to_bpc
from .model import CharTCN


def lr_at(step, cfg):
    if step < cfg["warmup"]:
        return cfg["lr"] * (step + 1) / cfg["warmup"]
    p = (step - cfg["warmup"]) / max(1, cfg["steps"] - cfg["warmup"])
    return cfg["lr"] * 0.5 * (1 + math.cos(math.pi * p))


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    tot = n = 0
    for x, y in loader:
        tot += lm_loss(model(x), y).item() * len(x)
        n += len(x)
    model.train()
    return to_bpc(tot / n)


@torch.no_grad()
def sample(model, vocab, prompt, n=80):
    model.eval()
    ids = vocab.encode(prompt)[None]
    for _ in range(n):
        nxt = model(ids[:, -model.receptive_field:])[0, -1].argmax()
        ids = torch.cat([ids, nxt.view(1, 1)], dim=1)
    model.train()
    return vocab.decode(ids[0].tolist())


def main():
    ap = argparse.ArgumentParser(prog="python -m grammarlm.train")
    ap.add_argument("--config", default="configs/small.toml")
    ap.add_argument("--steps", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    dc, mc, tc = cfg["data"], cfg["model"], cfg["train"]
    if args.steps:
        tc["steps"] = args.steps
    torch.manual_seed(tc["seed"])
    torch.set_num_threads(1)

    train_text = corpus(dc["train_sentences"], dc["seed"])
    val_text = corpus(dc["val_sentences"], dc["seed"] + 1)
    vocab = Vocab(train_text + val_text)
    train_ds = NextCharWindows(vocab.encode(train_text), dc["context"])
    val_ds = NextCharWindows(vocab.encode(val_text), dc["context"], stride=dc["context"])
    g = torch.Generator().manual_seed(tc["seed"])
    train_dl = DataLoader(train_ds, batch_size=tc["batch_size"],
                          sampler=RandomSampler(train_ds, replacement=True,
                                                num_samples=tc["steps"] * tc["batch_size"], generator=g))
    val_dl = DataLoader(val_ds, batch_size=128)

    model = CharTCN(len(vocab), **mc)
    opt = torch.optim.AdamW(model.parameters(), lr=tc["lr"], weight_decay=0.01)
    print(f"vocab={len(vocab)} train_chars={len(train_text)} params={sum(p.numel() for p in model.parameters())}")

    t0 = time.time()
    for step, (x, y) in enumerate(train_dl):
        for group in opt.param_groups:
            group["lr"] = lr_at(step, tc)
        loss = lm_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), tc["clip"])
        opt.step()
        if (step + 1) % tc["eval_every"] == 0:
            print(f"step {step + 1:4d} train_bpc {to_bpc(loss.item()):.3f} "
                  f"val_bpc {evaluate(model, val_dl):.3f} [{time.time() - t0:.1f}s]")

    print("sample:", repr(sample(model, vocab, "the clever ")))
    print(f"val_bpc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
