import argparse
import json

import torch

from .data import Vocab, build_pairs
from .engine import evaluate, make_scheduler, train_one_epoch
from .model import CosineMatcher


def batches(A, B, Y, size, gen):
    perm = torch.randperm(len(Y), generator=gen)
    for i in range(0, len(perm), size):
        idx = perm[i:i + size]
        yield A[idx], B[idx], Y[idx]


def main():
    ap = argparse.ArgumentParser(prog="python -m prodmatch.train")
    ap.add_argument("--config", default="configs/default.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    vocab = Vocab(cfg["model"]["vocab_size"])
    tr = cfg["train"]
    A, B, Y = build_pairs(cfg["catalog"], vocab, seed=100 + seed, neg_per_pos=tr["neg_per_pos"])
    Av, Bv, Yv = build_pairs(cfg["catalog"], vocab, seed=5000, neg_per_pos=1)
    print(f"train pairs {len(Y)} (pos {int(Y.sum())}), val pairs {len(Yv)}")

    model = CosineMatcher(cfg["model"]["vocab_size"], cfg["model"]["dim"], cfg["model"]["init_scale"])
    opt = torch.optim.Adam(model.parameters(), lr=tr["lr"])
    sched = make_scheduler(opt, cfg["scheduler"])
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(tr["epochs"]):
        loss = train_one_epoch(model, batches(A, B, Y, tr["batch_size"], gen), opt, sched)
        print(f"epoch {epoch + 1:2d} loss={loss:.4f} val_acc={evaluate(model, Av, Bv, Yv):.4f} "
              f"lr={opt.param_groups[0]['lr']:.2e} scale={model.log_scale.exp().item():.2f}")
    print(f"val_acc={evaluate(model, Av, Bv, Yv):.4f}")


if __name__ == "__main__":
    main()
