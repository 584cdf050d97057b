import argparse
import os

import numpy as np
import torch
import torch.nn.functional as F

from piste.kinematics import ACTIONS, make_set
from piste.net import TemporalConvNet


def load(cache_dir, seed):
    path = os.path.join(cache_dir, f"clips_{seed}.npz")
    if not os.path.exists(path):
        os.makedirs(cache_dir, exist_ok=True)
        xtr, ytr = make_set(1600, seed)
        xte, yte = make_set(800, seed + 1000)
        np.savez_compressed(path, xtr=xtr, ytr=ytr, xte=xte, yte=yte)
    d = np.load(path)
    return d["xtr"], d["ytr"], d["xte"], d["yte"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--bs", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cache", default="cache")
    a = p.parse_args()
    torch.manual_seed(a.seed)

    xtr, ytr, xte, yte = load(a.cache, a.seed)
    # per-joint standardisation (angles have very different resting values)
    mu = xtr.mean(axis=(0, 1), keepdims=True)
    sd = xtr.std(axis=(0, 1), keepdims=True)
    xtr = torch.tensor((xtr - mu) / sd)
    xte = torch.tensor((xte - mu) / sd)
    ytr, yte = torch.tensor(ytr), torch.tensor(yte)

    net = TemporalConvNet(len(ACTIONS))
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
    for ep in range(a.epochs):
        net.train()
        perm = torch.randperm(len(ytr))
        for i in range(0, len(perm), a.bs):
            j = perm[i:i + a.bs]
            loss = F.cross_entropy(net(xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            acc = (net(xte).argmax(1) == yte).float().mean().item()
        if ep % 5 == 4:
            print(f"epoch {ep + 1}: loss {loss.item():.3f} test_acc {acc:.3f}")
    print(f"test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
