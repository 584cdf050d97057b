import argparse
import math

import torch

from kernels import ARDRBFRegressor


def make_data(n, dim, gen):
    x = torch.rand(n, dim, generator=gen) * 4 - 2
    y = (torch.sin(2.0 * x[:, 0]) + 0.6 * x[:, 1] ** 2 - 0.8 * x[:, 2] * x[:, 0]
         + 0.1 * torch.randn(n, generator=gen))
    return x, y


def r2(pred, y):
    return 1 - ((pred - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()


def main():
    ap = argparse.ArgumentParser(description="ARD RBF regression on a response surface")
    ap.add_argument("--dim", type=int, default=8, help="input dims (only 3 matter)")
    ap.add_argument("--n-train", type=int, default=1500)
    ap.add_argument("--n-inducing", type=int, default=96)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--alpha-l2", type=float, default=1e-4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    data_gen = torch.Generator().manual_seed(2718)
    x_tr, y_tr = make_data(args.n_train, args.dim, data_gen)
    x_va, y_va = make_data(1000, args.dim, data_gen)
    y_mu, y_sd = y_tr.mean(), y_tr.std()

    perm = torch.randperm(args.n_train)[:args.n_inducing]
    model = ARDRBFRegressor(args.dim, args.n_inducing, init_points=x_tr[perm])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for step in range(args.steps):
        idx = torch.randint(0, args.n_train, (256,))
        pred = model(x_tr[idx])
        mse = ((pred - (y_tr[idx] - y_mu) / y_sd) ** 2).mean()
        loss = mse + args.alpha_l2 * model.alpha.pow(2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 300 == 0 or step == args.steps - 1:
            with torch.no_grad():
                val = r2(model(x_va) * y_sd + y_mu, y_va)
            ls = " ".join(f"{v:.2f}" for v in model.lengthscales().tolist())
            print(f"step {step:4d} mse={mse.item():.4f} val_r2={val:.4f} lengthscales=[{ls}]")

    with torch.no_grad():
        val = r2(model(x_va) * y_sd + y_mu, y_va)
    print(f"val_r2={val:.4f}")


if __name__ == "__main__":
    main()
