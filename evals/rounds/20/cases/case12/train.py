import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from bookings import simulate
from ports import N_PORTS, pretrain_port_vectors


class DemandModel(nn.Module):
    def __init__(self, port_vectors, n_bands=4):
        super().__init__()
        self.port = nn.Embedding.from_pretrained(port_vectors.clone(), freeze=False)
        self.port.weight.requires_grad_(False)          # pretrained on the timetable, kept fixed
        self.port_id = nn.Embedding(N_PORTS, 4)          # free per-port offset
        self.weekday = nn.Embedding(7, 4)
        self.hour = nn.Embedding(16, 4)
        self.season = nn.Embedding(4, 3)
        d = 2 * port_vectors.shape[1] + 2 * 4 + 4 + 4 + 3
        self.mlp = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, n_bands))

    def forward(self, cats):
        src, dst, wd, hr, se = cats.unbind(1)
        z = torch.cat([self.port(src), self.port(dst), self.port_id(src), self.port_id(dst),
                       self.weekday(wd), self.hour(hr), self.season(se)], dim=1)
        return F.log_softmax(self.mlp(z), dim=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    cats, band, day = simulate(8000, seed=args.seed)
    order = np.argsort(day, kind="stable")               # chronological: validate on the last weeks
    cats, band = cats[order], band[order]
    cut = int(0.8 * len(band))
    Xtr, ytr = torch.from_numpy(cats[:cut]), torch.from_numpy(band[:cut])
    Xva, yva = torch.from_numpy(cats[cut:]), torch.from_numpy(band[cut:])

    model = DemandModel(pretrain_port_vectors(seed=args.seed))
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(trainable, lr=3e-3)
    nll = nn.NLLLoss()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        running = 0.0
        for i in range(0, len(perm), 128):
            j = perm[i:i + 128]
            loss = nll(model(Xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(j)
        model.eval()
        with torch.no_grad():
            acc = (model(Xva).argmax(1) == yva).float().mean().item()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} nll {running / len(Xtr):.4f} val_acc {acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
