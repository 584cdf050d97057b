import argparse
import torch
import torch.nn as nn
from bombs.field import survey
from bombs.losses import log_mass_loss


class MassNet(nn.Module):
    def __init__(self, d_in, width=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, width), nn.SiLU(), nn.Linear(width, width), nn.SiLU())
        self.out = nn.Linear(width, 1)

    def forward(self, x):
        return self.out(self.body(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    xtr, ytr = map(torch.from_numpy, survey(2000, seed=1))
    xva, yva = map(torch.from_numpy, survey(500, seed=2))
    mu, sd = xtr.mean(0), xtr.std(0)
    xtr, xva = (xtr - mu) / sd, (xva - mu) / sd
    model = MassNet(xtr.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    g = torch.Generator().manual_seed(a.seed)
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(xtr), generator=g)
        for i in range(0, len(xtr), 100):
            b = perm[i:i + 100]
            loss = log_mass_loss(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 10 == 9:
            model.eval()
            with torch.no_grad():
                mae = (model(xva).squeeze(1) - yva).abs().mean().item()
            print(f"epoch {ep+1} loss {loss.item():.4f} val_mae_log10 {mae:.4f}")
    print(f"val_mae_log10={mae:.4f}")


if __name__ == "__main__":
    main()
