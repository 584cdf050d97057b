import argparse
import time
import tomllib

import torch
from torch.utils.data import DataLoader, TensorDataset

from rewardkit.model import RewardHead, bt_log_likelihood
from rewardkit.pairs import make_splits


@torch.no_grad()
def pair_accuracy(model, chosen, rejected):
    model.eval()
    return (model(chosen) > model(rejected)).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="rm.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    tcfg = cfg["train"]
    if args.seed is not None:
        tcfg["seed"] = args.seed
    torch.manual_seed(tcfg["seed"])

    (ctr, rtr), (cte, rte) = make_splits(cfg["data"])
    dl = DataLoader(TensorDataset(ctr, rtr), batch_size=tcfg["batch_size"], shuffle=True)
    model = RewardHead(cfg["data"]["dim"], cfg["model"]["hidden"], cfg["model"]["dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=tcfg["lr"])

    t0 = time.time()
    for epoch in range(tcfg["epochs"]):
        model.train()
        for chosen, rejected in dl:
            r_c, r_r = model(chosen), model(rejected)
            # keep the reward scale anchored around zero
            reg = tcfg["margin_reg"] * (r_c.pow(2).mean() + r_r.pow(2).mean())
            loss = bt_log_likelihood(r_c, r_r) + reg
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}  loss {loss.item():.4f}  test_pair_acc {pair_accuracy(model, cte, rte):.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC pair_acc={pair_accuracy(model, cte, rte):.4f}")


if __name__ == "__main__":
    main()
