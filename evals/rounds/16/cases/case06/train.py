import argparse
import copy
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

from positions import make_set


class ValueNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(4, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Flatten(), nn.Linear(width * 64, 64), nn.ReLU(),
        )
        self.value = nn.Linear(64, 1)
        self.material = nn.Linear(64, 5)

    def forward(self, x):
        h = self.trunk(x)
        return self.value(h).squeeze(-1), F.log_softmax(self.material(h), dim=-1)


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, p in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(p.detach(), alpha=1 - decay)


@torch.no_grad()
def accuracy(net, x, y):
    net.eval()
    v, _ = net(x)
    return ((v > 0).float() == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="run.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    xb, wb, mb = (torch.from_numpy(a) for a in make_set(cfg["n_train"], cfg["seed"]))
    xv, wv, _ = (torch.from_numpy(a) for a in make_set(cfg["n_val"], cfg["seed"] + 1))

    model = ValueNet(cfg["width"])
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(wb))
        for i in range(0, len(wb), bs):
            idx = perm[i:i + bs]
            v, logp = model(xb[idx])
            loss = (F.binary_cross_entropy_with_logits(v, wb[idx])
                    + cfg["aux_weight"] * F.nll_loss(logp, mb[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, cfg["ema_decay"])
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_acc(ema) {accuracy(ema, xv, wv):.3f}")

    print(f"val_acc={accuracy(ema, xv, wv):.4f}")


if __name__ == "__main__":
    main()
