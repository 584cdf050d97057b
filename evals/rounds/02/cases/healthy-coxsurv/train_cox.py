import argparse
import copy
import tomllib

import numpy as np
import torch
import torch.nn as nn

from fleet import simulate_fleet


class RiskNet(nn.Module):
    def __init__(self, d_in, hidden=64, dropout=0.1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.SELU(), nn.Dropout(dropout),
                                 nn.Linear(hidden, hidden), nn.SELU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)          # log hazard ratio, shape (N,)


def cox_partial_nll(log_hr, time, event):
    """Negative Cox partial log-likelihood, averaged over observed events."""
    order = torch.argsort(time, descending=True)      # risk set of i = everyone with time >= t_i
    log_hr, event = log_hr[order], event[order]
    log_risk_set = torch.logcumsumexp(log_hr, dim=0)
    return -((log_hr - log_risk_set) * event).sum() / event.sum().clamp(min=1.0)


def concordance(risk, time, event):
    """Harrell's C: among comparable pairs, fraction where the earlier failure has higher risk."""
    risk, time, event = map(np.asarray, (risk, time, event))
    num = den = 0.0
    for i in np.flatnonzero(event == 1):
        comparable = time > time[i]
        den += comparable.sum()
        num += (risk[i] > risk[comparable]).sum() + 0.5 * (risk[i] == risk[comparable]).sum()
    return num / den


@torch.no_grad()
def update_ema(ema_model, model, decay):
    for p_ema, p in zip(ema_model.parameters(), model.parameters()):
        p_ema.mul_(decay).add_(p.detach(), alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="cox.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as fh:
        cfg = tomllib.load(fh)
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    torch.set_num_threads(1)

    d, m, o = cfg["data"], cfg["model"], cfg["optim"]
    x_tr, t_tr, e_tr = simulate_fleet(d["n_train"], d["censor_rate"], seed=seed)
    x_te, t_te, e_te = simulate_fleet(d["n_test"], d["censor_rate"], seed=seed + 1)
    print(f"event rate train={e_tr.mean():.3f} test={e_te.mean():.3f}")
    mu, sd = x_tr.mean(0), x_tr.std(0)
    x_tr = torch.from_numpy((x_tr - mu) / sd)
    x_te = torch.from_numpy((x_te - mu) / sd)
    t_tr, e_tr = torch.from_numpy(t_tr), torch.from_numpy(e_tr)

    model = RiskNet(x_tr.shape[1], m["hidden"], m["dropout"])
    ema = copy.deepcopy(model).requires_grad_(False)     # evaluation copy, never trained directly
    ema.eval()
    opt = torch.optim.AdamW(model.parameters(), lr=o["lr"], weight_decay=o["weight_decay"])

    gen = torch.Generator().manual_seed(seed)
    for epoch in range(1, o["epochs"] + 1):
        perm = torch.randperm(len(x_tr), generator=gen)
        losses = []
        for k in range(0, len(perm), o["batch_size"]):
            idx = perm[k:k + o["batch_size"]]
            loss = cox_partial_nll(model(x_tr[idx]), t_tr[idx], e_tr[idx])
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), o["max_grad_norm"])
            opt.step()
            update_ema(ema, model, o["ema_decay"])
            losses.append(loss.item())
        if epoch % 5 == 0:
            with torch.no_grad():
                c = concordance(ema(x_te).numpy(), t_te, e_te)
            print(f"epoch {epoch:2d}  partial_nll {np.mean(losses):.4f}  test_cindex(ema) {c:.4f}")

    with torch.no_grad():
        c = concordance(ema(x_te).numpy(), t_te, e_te)
    print(f"METRIC test_cindex={c:.4f}")


if __name__ == "__main__":
    main()
