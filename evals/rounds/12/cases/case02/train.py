#!/usr/bin/env python
"""Hurdle CLV model: a purchase gate (BCE) and a spend regressor (MSE on log spend),
each with its own optimizer."""
import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F

from data import make_customers, standardize
from models import PurchaseGate, SpendRegressor, predict_log1p_clv


def parse():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n-customers", type=int, default=20000)
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--gate-lr", type=float, default=1e-3)
    ap.add_argument("--spend-lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args()


def main():
    args = parse()
    torch.manual_seed(args.seed)
    t0 = time.time()
    X, spend = make_customers(args.n_customers, seed=args.seed)
    n_tr = int(0.8 * len(X))
    Xtr, Xva = standardize(X[:n_tr], X[n_tr:])
    Xtr, Xva = torch.from_numpy(Xtr), torch.from_numpy(Xva)
    s_tr, s_va = torch.from_numpy(spend[:n_tr]), torch.from_numpy(spend[n_tr:])
    buy_tr = (s_tr > 0).float()
    base = torch.log1p(s_va).std().item()
    print(f"baseline rmse (predict mean) = {base:.3f}")
    print(f"customers: train={n_tr} val={len(Xva)} buyer rate={buy_tr.mean():.2f}")

    gate = PurchaseGate(X.shape[1])
    reg = SpendRegressor(X.shape[1])
    gate_opt = torch.optim.Adam(gate.parameters(), lr=args.gate_lr)
    spend_opt = torch.optim.Adam(reg.parameters(), lr=args.spend_lr)

    for epoch in range(args.epochs):
        perm = torch.randperm(n_tr)
        g_sum = s_sum = 0.0
        for i in range(0, n_tr, args.batch_size):
            idx = perm[i:i + args.batch_size]
            xb, sb, bb = Xtr[idx], s_tr[idx], buy_tr[idx]

            # --- hurdle part: does the customer buy at all
            gate_opt.zero_grad()
            loss_gate = F.binary_cross_entropy_with_logits(gate(xb), bb)
            loss_gate.backward()
            gate_opt.step()
            g_sum += loss_gate.item()

            # --- amount part, only on buyers
            m = sb > 0
            if m.sum() < 2:
                continue
            pred = reg(xb[m])
            loss_spend = F.mse_loss(pred, torch.log1p(sb[m]))
            loss_spend.backward()
            spend_opt.step()
            s_sum += loss_spend.item()
        n_b = (n_tr + args.batch_size - 1) // args.batch_size

        gate.eval(); reg.eval()
        pred = predict_log1p_clv(gate, reg, Xva)
        val_rmse = torch.sqrt(F.mse_loss(pred, torch.log1p(s_va))).item()
        with torch.no_grad():
            mb = s_va > 0
            spend_rmse = torch.sqrt(F.mse_loss(reg(Xva[mb]), torch.log1p(s_va[mb]))).item()
        gate.train(); reg.train()
        print(f"epoch {epoch + 1:2d} gate_bce={g_sum / n_b:.4f} spend_mse={s_sum / n_b:.4f} "
              f"val_rmse_log1p={val_rmse:.4f} val_spend_rmse={spend_rmse:.4f}")

    print(f"done in {time.time() - t0:.1f}s")
    print(f"val_rmse_log1p={val_rmse:.4f}")
    print(f"METRIC val_spend_rmse={spend_rmse:.4f}")


if __name__ == "__main__":
    main()
