import argparse
import json
import time

import numpy as np
import torch
import torch.nn.functional as F

from synth import make
from model import TensionRegressor


def set_trainable(model, prefixes):
    """requires_grad=True for parameters whose name starts with one of `prefixes`."""
    n_on = 0
    for name, p in model.named_parameters():
        p.requires_grad = any(name.startswith(k) for k in prefixes)
        n_on += p.requires_grad
    return n_on


def batches(n, bs):
    perm = torch.randperm(n)
    for s in range(0, n, bs):
        yield perm[s:s + bs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="train_config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])

    S, M, T = make(cfg["n_train"], cfg["n_bins"], rng)
    Sv, Mv, Tv = make(cfg["n_val"], cfg["n_bins"], rng)
    m_mu, m_sd = M.mean(0), M.std(0)
    logT_mu, logT_sd = np.log(T).mean(), np.log(T).std()
    S, Sv = torch.tensor(S), torch.tensor(Sv)
    M, Mv = torch.tensor((M - m_mu) / m_sd), torch.tensor((Mv - m_mu) / m_sd)
    y = torch.tensor((np.log(T) - logT_mu) / logT_sd, dtype=torch.float32)

    model = TensionRegressor(cfg["n_bins"])
    t0 = time.time()
    for epoch in range(cfg["epochs"]):
        if epoch == 0:
            set_trainable(model, ["head."])
            opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=cfg["lr_head"])
        elif epoch == cfg["warmup_epochs"]:
            n_on = set_trainable(model, cfg["unfreeze"])
            print(f"fine-tuning {n_on} parameter tensors")
            opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=cfg["lr_finetune"])
        model.train()
        tot = 0.0
        for j in batches(len(y), cfg["batch_size"]):
            loss = F.mse_loss(model(S[j], M[j]), y[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(j)
        model.eval()
        with torch.no_grad():
            pred = np.exp(model(Sv, Mv).numpy() * logT_sd + logT_mu)
        mape = float(np.mean(np.abs(pred - Tv) / Tv))
        print(f"epoch {epoch + 1:2d} train_mse {tot / len(y):.4f} val_mape {mape:.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"val_mape={mape:.4f}")


if __name__ == "__main__":
    main()
