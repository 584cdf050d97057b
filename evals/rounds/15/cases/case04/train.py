import argparse
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

from model import WeldNet
from xray import make_set


def focal_loss(logits, target, gamma=2.0):
    logp = F.log_softmax(logits, dim=1).gather(1, target[:, None]).squeeze(1)
    return (-(1 - logp.exp()) ** gamma * logp).mean()


def inference_mode(model):
    """Deterministic predictions: switch off the stochastic layers."""
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.eval()
    return model


def evaluate(model, x, y, batch_size):
    inference_mode(model)
    preds = []
    with torch.no_grad():
        for i in range(0, len(x), batch_size):
            preds.append(model(x[i:i + batch_size]).argmax(1))
    model.train()
    pred = torch.cat(preds)
    tp = ((pred == 1) & (y == 1)).sum().item()
    fp = ((pred == 1) & (y == 0)).sum().item()
    fn = ((pred == 0) & (y == 1)).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="weld.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    xtr, ytr = map(torch.from_numpy, make_set(cfg["n_train"], cfg["patch"], cfg["defect_rate"], cfg["seed"] + 1))
    xva, yva = map(torch.from_numpy, make_set(cfg["n_val"], cfg["patch"], cfg["defect_rate"], 90210,
                                              archive_order=True))
    model = WeldNet(cfg["dropout"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(xtr))
        for i in range(0, len(perm), bs):
            b = perm[i:i + bs]
            loss = focal_loss(model(xtr[b]), ytr[b], cfg["focal_gamma"])
            opt.zero_grad()
            loss.backward()
            opt.step()
        f1 = evaluate(model, xva, yva, cfg["val_batch_size"])
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_f1 {f1:.4f}")
    print(f"val_defect_f1={f1:.4f}")


if __name__ == "__main__":
    main()
