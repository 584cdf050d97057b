import argparse
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def fold_sequences(n, length, n_folds, seed):
    rule = np.random.default_rng(99).integers(0, n_folds, (n_folds, n_folds))
    rng = np.random.default_rng(seed)
    seqs = np.zeros((n, length), dtype=np.int64)
    for i in range(n):
        seqs[i, :2] = rng.integers(0, n_folds, 2)
        for t in range(2, length):
            nxt = rule[seqs[i, t - 2], seqs[i, t - 1]]
            seqs[i, t] = nxt if rng.random() > 0.1 else rng.integers(0, n_folds)
    return torch.from_numpy(seqs)


class FoldModel(nn.Module):
    def __init__(self, n_folds, dim):
        super().__init__()
        self.emb = nn.Embedding(n_folds, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, n_folds)

    def forward(self, seq):
        h, _ = self.gru(self.emb(seq))
        return self.out(h)


def next_acc(model, seqs):
    model.eval()
    with torch.no_grad():
        pred = model(seqs[:, :-1]).argmax(-1)
        return (pred[:, 2:] == seqs[:, 3:]).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="lantern.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)
    train = fold_sequences(cfg["n_train"], cfg["seq_len"], cfg["n_folds"], cfg["seed"])
    val = fold_sequences(cfg["n_val"], cfg["seq_len"], cfg["n_folds"], cfg["seed"] + 1)

    model = FoldModel(cfg["n_folds"], cfg["dim"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=cfg["lr_step_epochs"], gamma=cfg["lr_gamma"])
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(train))
        for b in range(0, len(perm), cfg["batch_size"]):
            seq = train[perm[b:b + cfg["batch_size"]]]
            logits = model(seq[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, cfg["n_folds"]), seq[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} lr {opt.param_groups[0]['lr']:.2e} val_next_acc {next_acc(model, val):.3f}")
    print(f"val_next_acc={next_acc(model, val):.4f}")


if __name__ == "__main__":
    main()
