import argparse
import copy

import numpy as np
import torch
import torch.nn as nn

from book import simulate_book, soil_survey


class ClaimRate(nn.Module):
    def __init__(self, soil, n_feats, hidden=32):
        super().__init__()
        # soil-survey vectors are measured quantities, not something to fit here
        self.county = nn.Embedding.from_pretrained(torch.from_numpy(soil), freeze=False)
        self.county.weight.requires_grad_(False)
        self.mlp = nn.Sequential(nn.Linear(soil.shape[1] + n_feats, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 1))
        self.mlp[-1].bias.data.fill_(-5.0)

    def forward(self, county, feats, acres):
        log_rate = self.mlp(torch.cat([self.county(county), feats], 1)).squeeze(1)
        return log_rate + torch.log(acres)           # log expected claims


def poisson_deviance(log_mu, y):
    mu = log_mu.exp()
    term = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return (2 * (term - (y - mu))).mean().item()


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm, alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--ema", type=float, default=0.99)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    tr = [torch.from_numpy(np.asarray(a)) for a in simulate_book(30000, seed=args.seed + 1)]
    va = [torch.from_numpy(np.asarray(a)) for a in simulate_book(8000, seed=1234)]
    model = ClaimRate(soil_survey(), tr[1].shape[1])
    ema = copy.deepcopy(model)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    loss_fn = nn.PoissonNLLLoss(log_input=True, full=False)

    for epoch in range(args.epochs):
        perm = torch.randperm(len(tr[0]))
        running = 0.0
        for i in range(0, len(perm), args.batch_size):
            c, f, a, y = (t[perm[i:i + args.batch_size]] for t in tr)
            loss = loss_fn(model(c, f, a), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, args.ema)
            running += loss.item()
        with torch.no_grad():
            dev = poisson_deviance(ema(*va[:3]), va[3])
        print(f"epoch {epoch + 1} train_nll {running / (len(perm) / args.batch_size):.4f} val_deviance {dev:.4f}")
    rate0 = va[3].sum() / va[2].sum()
    null_dev = poisson_deviance(torch.log(rate0 * va[2]), va[3])
    print(f"intercept_only_deviance={null_dev:.4f}")
    print(f"val_deviance={dev:.4f}")


if __name__ == "__main__":
    main()
