import argparse
import json
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import ReverseTask, collate
from model import Seq2Seq
from utils import lengths_to_padding_mask, masked_mean
from vocab import EOS, N_SPECIAL


def sequence_loss(logits, dec_out, tgt_len):
    ce = F.cross_entropy(logits.transpose(1, 2), dec_out, reduction="none")   # (B, T)
    mask = lengths_to_padding_mask(tgt_len, dec_out.size(1))
    return masked_mean(ce, mask)


def evaluate(model, loader):
    model.eval()
    tok_ok = tok_n = seq_ok = seq_n = 0
    for src, src_len, _, dec_out, tgt_len in loader:
        pred = model.greedy(src, src_len, dec_out.size(1))
        valid = ~lengths_to_padding_mask(tgt_len, dec_out.size(1))
        match = (pred == dec_out) & valid
        tok_ok += match.sum().item()
        tok_n += valid.sum().item()
        seq_ok += (match.sum(1) == valid.sum(1)).sum().item()
        seq_n += len(src)
    model.train()
    return tok_ok / tok_n, seq_ok / seq_n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hparams", default="hparams.json")
    ap.add_argument("--epochs", type=int)
    args = ap.parse_args()
    hp = json.load(open(args.hparams))
    if args.epochs:
        hp["epochs"] = args.epochs
    torch.manual_seed(hp["seed"])
    torch.set_num_threads(1)

    mk = lambda n, s: ReverseTask(n, hp["n_symbols"], hp["min_len"], hp["max_len"], s)
    train_ds, val_ds = mk(hp["n_train"], hp["seed"]), mk(hp["n_val"], hp["seed"] + 1)
    g = torch.Generator().manual_seed(hp["seed"])
    train_dl = DataLoader(train_ds, hp["batch_size"], shuffle=True, collate_fn=collate, generator=g)
    val_dl = DataLoader(val_ds, 500, collate_fn=collate)

    vocab = N_SPECIAL + hp["n_symbols"]
    model = Seq2Seq(vocab, hp["emb"], hp["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=hp["lr"])
    t0 = time.time()
    step = 0
    for epoch in range(1, hp["epochs"] + 1):
        for src, src_len, dec_in, dec_out, tgt_len in train_dl:
            logits = model(src, src_len, dec_in)
            loss = sequence_loss(logits, dec_out, tgt_len)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), hp["clip"])
            opt.step()
            step += 1
            if step % 100 == 0:
                print(f"step {step:5d} loss {loss.item():.4f} [{time.time() - t0:.1f}s]")
        tok, seq = evaluate(model, val_dl)
        print(f"epoch {epoch} val_token_acc {tok:.4f} val_exact {seq:.4f}")
    tok, seq = evaluate(model, val_dl)
    print(f"val_token_acc={tok:.4f}")
    print(f"val_exact_match={seq:.4f}")


if __name__ == "__main__":
    main()
