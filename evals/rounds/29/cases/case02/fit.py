import argparse
import json

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from carts.events import event_log
from carts.model import CartModel
from carts.trainer import Trainer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="carts.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    num, ent, sales = event_log(cfg["n_events"], cfg["n_entrances"], seed)
    num, ent, sales = map(torch.from_numpy, (num, ent, sales))
    n_val = len(sales) // 5
    scale = sales[:-n_val].mean()
    train = TensorDataset(num[:-n_val], ent[:-n_val], sales[:-n_val] / scale)
    loader = DataLoader(train, batch_size=cfg["batch_size"], shuffle=True)

    model = CartModel(num.shape[1], cfg["n_entrances"], cfg["emb_dim"], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    trainer = Trainer(model, opt, nn.SmoothL1Loss(beta=0.5), log_every=5)
    trainer.fit(loader, cfg["epochs"])

    pred = trainer.predict(num[-n_val:], ent[-n_val:]) * scale
    mae = (pred - sales[-n_val:]).abs().mean().item()
    print(f"mean-predictor mae: {(sales[-n_val:] - scale).abs().mean().item():.2f}")
    print(f"val_mae={mae:.3f}")


if __name__ == "__main__":
    main()
