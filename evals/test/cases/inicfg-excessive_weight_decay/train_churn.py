"""Train the churn model described in train.cfg.

    python train_churn.py [train.cfg]
"""
import configparser
import sys
from pathlib import Path

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from churn.evaluation import evaluate
from churn.model import ChurnNet
from churn.table import build_datasets


def read_config(path):
    parser = configparser.ConfigParser()
    if not parser.read(path):
        raise FileNotFoundError(path)
    return parser


def main(cfg_path="train.cfg"):
    cfg = read_config(cfg_path)
    data, mcfg, ocfg = cfg["data"], cfg["model"], cfg["optimizer"]
    seed = data.getint("seed")
    torch.manual_seed(seed)

    train_ds, hold_ds = build_datasets(data.getint("n_customers"), data.getfloat("holdout_fraction"), seed)
    train_loader = DataLoader(train_ds, batch_size=ocfg.getint("batch_size"), shuffle=True,
                              generator=torch.Generator().manual_seed(seed))
    hold_loader = DataLoader(hold_ds, batch_size=1024)
    base_rate = train_ds.tensors[2].mean().item()
    print(f"{len(train_ds)} train / {len(hold_ds)} holdout customers, churn rate {base_rate:.3f}")

    model = ChurnNet(embedding_dim=mcfg.getint("embedding_dim"),
                     hidden=tuple(int(h) for h in mcfg["hidden"].split(",")),
                     dropout=mcfg.getfloat("dropout"))
    optimizer = torch.optim.SGD(model.parameters(), lr=ocfg.getfloat("lr"),
                                momentum=ocfg.getfloat("momentum"),
                                weight_decay=ocfg.getfloat("weight_decay"))
    loss_fn = nn.BCEWithLogitsLoss()

    for epoch in range(1, ocfg.getint("epochs") + 1):
        model.train()
        total = 0.0
        for cats, nums, churned in train_loader:
            optimizer.zero_grad()
            loss = loss_fn(model(cats, nums), churned)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(churned)
        m = evaluate(model, hold_loader, loss_fn)
        print(f"epoch {epoch:2d}  train_bce {total / len(train_ds):.4f}  holdout_bce {m['loss']:.4f}  "
              f"acc {m['acc']:.4f}  auc {m['auc']:.4f}")

    out = Path(cfg["output"]["model_path"])
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), out)
    print(f"holdout auc: {m['auc']:.4f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
