import argparse
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from .nets import Encoder, head
from .sim import N_FEATURES, new_chemistry, old_chemistry


def standardize(train, *others):
    mu, sd = train.mean(0), train.std(0) + 1e-6
    return [(a - mu) / sd for a in (train, *others)]


def fit(params, loss_fn, n, steps, lr, bs, g, clip=None):
    opt = torch.optim.Adam(params, lr=lr, weight_decay=1e-4)
    norms = []
    for step in range(steps):
        idx = torch.randint(n, (bs,), generator=g)
        loss = loss_fn(idx)
        opt.zero_grad()
        loss.backward()
        if clip is not None:
            norms.append(nn.utils.clip_grad_norm_(params, clip).item())
        opt.step()
    return norms


def rmse(pred, y):
    return torch.sqrt(F.mse_loss(pred, y)).item()


def main():
    ap = argparse.ArgumentParser(prog="python -m cellife.run")
    ap.add_argument("--old-cells", type=int, default=4000)
    ap.add_argument("--new-cells", type=int, default=150)
    ap.add_argument("--test-cells", type=int, default=800)
    ap.add_argument("--pretrain-steps", type=int, default=1500)
    ap.add_argument("--finetune-steps", type=int, default=800)
    ap.add_argument("--seed", type=int, default=9)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    t0 = time.time()

    # ---------------- pretrain on the old chemistry
    xo, yo = old_chemistry(args.old_cells, rng)
    xo, = standardize(xo)
    yo, = standardize(yo)
    xo, yo = torch.from_numpy(xo), torch.from_numpy(yo)
    enc, pre_head = Encoder(N_FEATURES), head(16, 3)
    params = list(enc.parameters()) + list(pre_head.parameters())
    fit(params, lambda i: F.mse_loss(pre_head(enc(xo[i])), yo[i]), len(xo), args.pretrain_steps, 2e-3, 128, g)
    enc.eval()
    with torch.no_grad():
        print(f"pretrain_rmse(std units)={rmse(pre_head(enc(xo)), yo):.4f} [{time.time() - t0:.1f}s]")

    # ---------------- new chemistry: few labelled cells
    xn, yn = new_chemistry(args.new_cells, rng)
    xt, yt = new_chemistry(args.test_cells, rng)
    xn, xt = map(torch.from_numpy, standardize(xn, xt))
    y_mu, y_sd = float(yn.mean()), float(yn.std())
    yn_s = torch.from_numpy((yn - y_mu) / y_sd).unsqueeze(1)
    yt = torch.from_numpy(yt).unsqueeze(1)
    print(f"predict-the-mean rmse={rmse(torch.full_like(yt, y_mu), yt):.4f}")

    # baseline: same architecture trained from scratch on the 150 cells
    scratch_enc, scratch_head = Encoder(N_FEATURES), head(16, 1)
    sp = list(scratch_enc.parameters()) + list(scratch_head.parameters())
    fit(sp, lambda i: F.mse_loss(scratch_head(scratch_enc(xn[i])), yn_s[i]), len(xn), args.finetune_steps, 2e-3, 32, g)
    scratch_enc.eval()
    with torch.no_grad():
        scratch = rmse(scratch_head(scratch_enc(xt)) * y_sd + y_mu, yt)

    # transfer: frozen encoder (weights and BN statistics), features computed once
    enc.requires_grad_(False)
    enc.eval()
    with torch.no_grad():
        fn, ft = enc(xn), enc(xt)
    new_head = head(16, 1)
    norms = fit(list(new_head.parameters()), lambda i: F.mse_loss(new_head(fn[i]), yn_s[i]),
                len(fn), args.finetune_steps, 3e-3, 32, g, clip=5.0)
    print(f"head grad norm: median {np.median(norms):.3f} max {np.max(norms):.3f} (clip at 5.0)")
    with torch.no_grad():
        tuned = rmse(new_head(ft) * y_sd + y_mu, yt)
    print(f"[{time.time() - t0:.1f}s]")
    print(f"scratch_rmse={scratch:.4f}")
    print(f"finetune_rmse={tuned:.4f}")


if __name__ == "__main__":
    main()
