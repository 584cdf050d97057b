import argparse
import json
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from model import VoteEncoder
from votes import collate, make_votes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    rng = np.random.default_rng(cfg["seed"])

    tr = list(zip(*make_votes(cfg["n_train"], cfg["n_candidates"], cfg["min_len"], cfg["max_len"], rng)))
    te = list(zip(*make_votes(cfg["n_test"], cfg["n_candidates"], cfg["min_len"], cfg["max_len"], rng)))
    train_dl = DataLoader(tr, batch_size=cfg["batch_size"], shuffle=True, collate_fn=collate)
    test_dl = DataLoader(te, batch_size=256, collate_fn=collate)

    model = VoteEncoder(cfg["n_candidates"], cfg["d_model"], cfg["n_heads"], cfg["n_layers"], cfg["dropout"], cfg["max_len"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.01)
    warm = cfg["warmup_steps"]
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: min(1.0, (step + 1) / warm))
    nll = nn.NLLLoss()

    t0, step = time.time(), 0
    for epoch in range(cfg["epochs"]):
        model.train()
        running, norms = 0.0, []
        for tokens, y in train_dl:
            loss = nll(model(tokens), y)
            opt.zero_grad()
            loss.backward()
            norms.append(float(nn.utils.clip_grad_norm_(model.parameters(), cfg["clip_norm"])))
            opt.step()
            sched.step()   # per-step warmup
            step += 1
            running += loss.item()
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for tokens, y in test_dl:
                correct += (model(tokens).argmax(-1) == y).sum().item()
                total += len(y)
        print(f"epoch {epoch}  loss {running / len(train_dl):.4f}  max_grad_norm {max(norms):.2f}  test_acc {correct / total:.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC test_acc={correct / total:.4f}")


if __name__ == "__main__":
    main()
