import argparse
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from pruning import MagnitudePruner, cubic_sparsity


def make_data(cfg, rng):
    protos = rng.normal(size=(cfg["classes"], 3, cfg["dim"]))

    def draw(n):
        y = rng.integers(0, cfg["classes"], n)
        sub = rng.integers(0, 3, n)
        x = protos[y, sub] + 0.9 * rng.normal(size=(n, cfg["dim"]))
        return torch.tensor(x, dtype=torch.float32), torch.tensor(y)

    return draw(cfg["n_train"]), draw(cfg["n_test"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="prune_config.json")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    (x, y), (xt, yt) = make_data(cfg, rng)

    model = nn.Sequential(nn.Linear(cfg["dim"], cfg["hidden"]), nn.ReLU(),
                          nn.Linear(cfg["hidden"], cfg["hidden"]), nn.ReLU(),
                          nn.Linear(cfg["hidden"], cfg["classes"]))
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=cfg["momentum"],
                          weight_decay=cfg["weight_decay"])
    pruner = MagnitudePruner(model)

    step = 0
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(x))
        for i in range(0, len(x), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            if step % cfg["prune_every"] == 0:
                target = cubic_sparsity(step, cfg["final_sparsity"], cfg["prune_start"], cfg["prune_end"])
                pruner.update_masks(target)
                pruner.apply()
                opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(x[idx]), y[idx])
            loss.backward()
            opt.step()
            pruner.apply()
            step += 1
        model.eval()
        with torch.no_grad():
            acc = (model(xt).argmax(1) == yt).float().mean().item()
        print(f"epoch {epoch+1} loss={loss.item():.4f} test_acc={acc:.4f} sparsity={pruner.sparsity():.3f}")
    print(f"test_acc={acc:.4f} sparsity={pruner.sparsity():.3f}")


if __name__ == "__main__":
    main()
