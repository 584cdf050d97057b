import argparse
import json
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from tiles import make_tiles


class DVAE(nn.Module):
    def __init__(self, latents, classes, hidden):
        super().__init__()
        self.latents, self.classes = latents, classes
        self.enc = nn.Sequential(nn.Linear(64, hidden), nn.ReLU(), nn.Linear(hidden, latents * classes))
        self.dec = nn.Sequential(nn.Linear(latents * classes, hidden), nn.ReLU(), nn.Linear(hidden, 64))

    def encode(self, x):
        return self.enc(x).view(-1, self.latents, self.classes)

    def forward(self, x, tau):
        logits = self.encode(x)
        z = F.gumbel_softmax(logits, tau=tau, hard=False, dim=-1)
        return self.dec(z.flatten(1)), logits

    @torch.no_grad()
    def reconstruct(self, x):
        logits = self.encode(x)
        z = F.one_hot(logits.argmax(-1), self.classes).float()
        return torch.sigmoid(self.dec(z.flatten(1)))


def kl_to_uniform(logits):
    q = F.softmax(logits, -1)
    return (q * (F.log_softmax(logits, -1) + math.log(logits.shape[-1]))).sum((1, 2)).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="dvae.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])

    x_tr = torch.from_numpy(make_tiles(cfg["n_train"], rng))
    x_va = torch.from_numpy(make_tiles(cfg["n_val"], rng))
    model = DVAE(cfg["latents"], cfg["classes"], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    steps_per_epoch = math.ceil(len(x_tr) / cfg["batch_size"])
    total_steps = cfg["epochs"] * steps_per_epoch
    step = 0
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(x_tr))
        for i in range(0, len(x_tr), cfg["batch_size"]):
            xb = x_tr[perm[i:i + cfg["batch_size"]]]
            # exponential temperature annealing
            tau = cfg["tau_start"] * (cfg["tau_end"] / cfg["tau_start"]) ** (step / total_steps)
            recon_logits, logits = model(xb, tau)
            recon = F.binary_cross_entropy_with_logits(recon_logits, xb, reduction="sum") / len(xb)
            kl = kl_to_uniform(logits)
            loss = (recon + cfg["kl_weight"] * kl) / cfg["accum_steps"]
            loss.backward()
            if (step + 1) % cfg["accum_steps"] == 0:
                opt.step()
            if step % cfg["log_every"] == 0:
                opt.zero_grad()
                print(f"step {step:5d} tau {tau:.3f} recon {recon.item():.3f} kl {kl.item():.3f}")
            step += 1

    with torch.no_grad():
        err = ((model.reconstruct(x_va) > 0.5).float() != x_va).float().sum(1).mean().item()
    print(f"val_bit_err={err:.4f}")


if __name__ == "__main__":
    main()
