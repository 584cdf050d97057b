import argparse

import numpy as np
import torch
import torch.nn.functional as F

from model import AlloyNet, UncertaintyWeighting
from simulate import get_splits, N_FAMILIES


def r2(pred, target):
    ss_res = ((pred - target) ** 2).sum()
    ss_tot = ((target - target.mean()) ** 2).sum()
    return 1.0 - ss_res / ss_tot


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--bs", type=int, default=128)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)

    (Xtr, ctr, rtr), (Xva, cva, rva) = get_splits()
    x_mu, x_sd = Xtr.mean(0), Xtr.std(0) + 1e-6
    r_mu, r_sd = rtr.mean(), rtr.std()
    Xtr = torch.tensor((Xtr - x_mu) / x_sd)
    Xva = torch.tensor((Xva - x_mu) / x_sd)
    ctr, cva = torch.tensor(ctr), torch.tensor(cva)
    rtr_z = torch.tensor((rtr - r_mu) / r_sd)  # standardised density, shape (N,)
    rva = torch.tensor(rva)

    net = AlloyNet(Xtr.shape[1], N_FAMILIES)
    weighting = UncertaintyWeighting(2)
    opt = torch.optim.Adam(list(net.parameters()) + list(weighting.parameters()), lr=args.lr)

    n = len(ctr)
    for epoch in range(1, args.epochs + 1):
        net.train()
        perm = torch.randperm(n)
        agg = np.zeros(3)
        for i in range(0, n, args.bs):
            idx = perm[i:i + args.bs]
            logits, dens = net(Xtr[idx])
            cls_loss = F.cross_entropy(logits, ctr[idx])
            reg_loss = (dens - rtr_z[idx]).pow(2).mean()
            loss = weighting(cls_loss, reg_loss)
            opt.zero_grad()
            loss.backward()
            opt.step()
            agg += np.array([loss.item(), cls_loss.item(), reg_loss.item()]) * len(idx)
        agg /= n
        net.eval()
        with torch.no_grad():
            logits, dens = net(Xva)
            acc = (logits.argmax(1) == cva).float().mean().item()
            dens = dens.squeeze(1) * r_sd + r_mu
            val_r2 = r2(dens, rva).item()
        if epoch % 5 == 0 or epoch == 1:
            s = weighting.log_vars.detach().numpy()
            print(f"epoch {epoch:3d} loss {agg[0]:.4f} (ce {agg[1]:.4f}, mse {agg[2]:.4f}) "
                  f"s=[{s[0]:+.2f},{s[1]:+.2f}] val_acc {acc:.4f} val_r2 {val_r2:.4f}")
    print(f"val_family_acc={acc:.4f}")
    print(f"val_density_r2={val_r2:.4f}")


if __name__ == "__main__":
    main()
