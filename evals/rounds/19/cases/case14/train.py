import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class BlinkNet(nn.Module):
    def __init__(self, ch=16, p_drop=0.2):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, ch, 9, padding=4), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(ch, ch, 9, padding=4), nn.ReLU(),
        )
        self.drop = nn.Dropout(p_drop)
        self.out = nn.Linear(ch * 2, 2)

    def forward(self, x):
        h = self.conv(x.unsqueeze(1))
        h = torch.cat([h.mean(-1), h.abs().amax(-1)], 1)
        return F.log_softmax(self.out(self.drop(h)), dim=-1)


def f1_score(pred, y):
    tp = ((pred == 1) & (y == 1)).sum()
    fp = ((pred == 1) & (y == 0)).sum()
    fn = ((pred == 0) & (y == 1)).sum()
    return (2 * tp / max(2 * tp + fp + fn, 1)).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="emg_windows.npz")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    d = np.load(a.data)
    # shuffle windows and labels with one permutation so pairs stay together
    perm = np.random.default_rng(a.seed).permutation(len(d["ytr"]))
    Xtr = torch.from_numpy(d["Xtr"][perm])
    ytr = torch.from_numpy(d["ytr"][perm]).long()
    Xte, yte = torch.from_numpy(d["Xte"]), torch.from_numpy(d["yte"]).long()

    model = BlinkNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    nll = nn.NLLLoss()
    for ep in range(a.epochs):
        model.train()
        order = torch.randperm(len(Xtr))
        running = []
        for s in range(0, len(Xtr), 64):
            j = order[s:s + 64]
            loss = nll(model(Xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            running.append(loss.item())
        model.eval()
        with torch.no_grad():
            pred = model(Xte).argmax(-1)
        print(f"epoch {ep + 1}: loss={np.mean(running):.4f} test_f1={f1_score(pred, yte):.3f}")
    print(f"test_f1={f1_score(pred, yte):.4f}")


if __name__ == "__main__":
    main()
