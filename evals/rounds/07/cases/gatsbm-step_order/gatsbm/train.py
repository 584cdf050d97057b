import argparse
import json
import time

import torch
import torch.nn.functional as F

from .graph import split_nodes, stochastic_block_model
from .model import GAT
from .utils import dump_history, log_gradients


def accuracy(logits, y, idx):
    return (logits[idx].argmax(-1) == y[idx]).float().mean().item()


def main():
    ap = argparse.ArgumentParser(prog="python -m gatsbm.train")
    ap.add_argument("--config", default="configs/sbm.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    x, adj, y = stochastic_block_model(seed=1234, **cfg["graph"])
    tr, va, te = split_nodes(len(y), 0.15, 0.25, seed=cfg["seed"])
    print(f"nodes {len(y)}  edges {int(adj.sum()) // 2}  train/val/test {len(tr)}/{len(va)}/{len(te)}")

    model = GAT(x.shape[1], int(y.max()) + 1, **cfg["model"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["optim"]["lr"], weight_decay=cfg["optim"]["weight_decay"])

    history, best_val, test_at_best = [], -1.0, 0.0
    t0 = time.time()
    for epoch in range(cfg["optim"]["epochs"]):
        model.train()
        opt.zero_grad()
        logits = model(x, adj)
        loss = F.cross_entropy(logits[tr], y[tr])
        loss.backward()
        if cfg["log_grads"]:
            log_gradients(model, history, epoch)
        opt.step()

        model.eval()
        with torch.no_grad():
            logits = model(x, adj)
        va_acc, te_acc = accuracy(logits, y, va), accuracy(logits, y, te)
        if va_acc > best_val:
            best_val, test_at_best = va_acc, te_acc
        if epoch % 25 == 0:
            print(f"epoch {epoch:3d}  loss {loss.item():.4f}  val {va_acc:.4f}  test {te_acc:.4f}")
    if cfg["log_grads"]:
        dump_history(history, cfg["out_dir"])
    print(f"best val {best_val:.4f}  ({time.time() - t0:.1f}s)")
    print(f"METRIC test_acc={test_at_best:.4f}")


if __name__ == "__main__":
    main()
