import argparse

import torch
import torch.nn as nn

from model import CapacityNet
from utils import CHEMISTRIES, N_FEATURES, load_cells, set_seed


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--aux-weight", type=float, default=0.2)
    p.add_argument("--clip", type=float, default=100.0)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    set_seed(args.seed)

    d = load_cells()
    x_mean, x_std = d["x_train"].mean(0), d["x_train"].std(0)
    cap_mean, cap_std = d["cap_train"].mean(), d["cap_train"].std()
    x_train = (d["x_train"] - x_mean) / x_std
    x_test = (d["x_test"] - x_mean) / x_std
    y_train = (d["cap_train"] - cap_mean) / cap_std      # (N,)

    model = CapacityNet(N_FEATURES, len(CHEMISTRIES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[30], gamma=0.2)
    reg_loss, cls_loss = nn.MSELoss(), nn.NLLLoss()

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(x_train))
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            capacity, chem_logp = model(x_train[idx])
            loss = reg_loss(capacity, y_train[idx].unsqueeze(1)) \
                + args.aux_weight * cls_loss(chem_logp, d["chem_train"][idx])
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            opt.step()
        sched.step()

        if (epoch + 1) % 10 == 0:
            model.eval()
            with torch.no_grad():
                capacity, chem_logp = model(x_test)
                pred_ah = capacity.squeeze(-1) * cap_std + cap_mean
                rmse = (pred_ah - d["cap_test"]).pow(2).mean().sqrt().item()
                chem_acc = (chem_logp.argmax(-1) == d["chem_test"]).float().mean().item()
            print(f"epoch {epoch + 1}  test_rmse {rmse:.4f} Ah  chem_acc {chem_acc:.3f}")


if __name__ == "__main__":
    main()
