import argparse
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

from spectra import synth


def to_grade(score, n_grades=5):
    return score.long().clamp(0, n_grades - 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="settings.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    cfg = json.load(open(a.config))
    seed = cfg["seed"] if a.seed is None else a.seed
    torch.manual_seed(seed)

    Xtr, gtr = map(torch.from_numpy, synth(cfg["n_train"], cfg["bins"], seed))
    Xva, gva = map(torch.from_numpy, synth(cfg["n_val"], cfg["bins"], seed + 1))
    mu, sd = Xtr.mean(0), Xtr.std(0)
    Xtr, Xva = (Xtr - mu) / sd, (Xva - mu) / sd

    net = nn.Sequential(nn.Linear(cfg["bins"], cfg["hidden"]), nn.GELU(),
                        nn.Linear(cfg["hidden"], cfg["hidden"]), nn.GELU(),
                        nn.Linear(cfg["hidden"], 1))
    opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"])
    for ep in range(cfg["epochs"]):
        net.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), cfg["batch"]):
            j = perm[i:i + cfg["batch"]]
            loss = F.smooth_l1_loss(net(Xtr[j]).squeeze(1), gtr[j].float())
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 10 == 9:
            print(f"epoch {ep + 1} loss {loss.item():.4f}")

    net.eval()
    with torch.no_grad():
        score = net(Xva).squeeze(1)
    pred = to_grade(score)
    print(f"val_mae={(score - gva.float()).abs().mean().item():.4f}")
    print(f"val_grade_acc={(pred == gva).float().mean().item():.4f}")


if __name__ == "__main__":
    main()
