import math
import sys
import tomllib

import torch
import torch.nn as nn

from stations import simulate


class DirectionNet(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(),
                                 nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 2))

    def forward(self, x):
        sc = self.net(x)
        return sc / sc.norm(dim=1, keepdim=True).clamp(min=1e-6)  # unit (sin, cos)


def angle_loss(sc, theta):
    return (1 - (sc[:, 0] * torch.sin(theta) + sc[:, 1] * torch.cos(theta))).mean()


def angular_error_deg(sc, theta):
    pred = torch.atan2(sc[:, 0], sc[:, 1])
    diff = torch.remainder(pred - theta + math.pi, 2 * math.pi) - math.pi
    return diff.abs().mean().item() * 180 / math.pi


def main():
    with open(sys.argv[1] if len(sys.argv) > 1 else "settings.toml", "rb") as fh:
        cfg = tomllib.load(fh)
    opt_cfg = cfg["optim"]
    torch.manual_seed(opt_cfg["seed"])
    torch.set_num_threads(1)

    X, theta = map(torch.from_numpy, simulate(cfg["data"]["n_hours"]))
    nv = cfg["data"]["val_hours"]
    Xtr, ttr, Xva, tva = X[nv:], theta[nv:], X[:nv], theta[:nv]

    model = DirectionNet(X.shape[1], cfg["model"]["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=opt_cfg["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=opt_cfg["decay_every"], gamma=opt_cfg["gamma"])

    bs = opt_cfg["batch_size"]
    for epoch in range(opt_cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), bs):
            b = perm[i:i + bs]
            loss = angle_loss(model(Xtr[b]), ttr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            err = angular_error_deg(model(Xva), tva)
        if (epoch + 1) % 4 == 0:
            print(f"epoch {epoch + 1} lr={opt.param_groups[0]['lr']:.2e} loss={loss.item():.4f} val_mae_deg={err:.2f}")
    print(f"val_mae_deg={err:.2f}")


if __name__ == "__main__":
    main()
