import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SEED = 9
S = 8


def particle(kind, rng):
    z, y, x = np.mgrid[0:S, 0:S, 0:S] - (S - 1) / 2 + rng.normal(0, 0.5, 3)[:, None, None, None]
    r = np.sqrt(x ** 2 + y ** 2 + z ** 2)
    if kind == 0:      # graupel: fuzzy ball
        v = (r < 2.8).astype(float) * rng.uniform(0.6, 1, (S, S, S))
    elif kind == 1:    # hail embryo: dense shell
        v = ((r > 1.5) & (r < 3.2)).astype(float)
    else:              # aggregate: arms along axes
        v = ((np.abs(x) < 0.8) & (np.abs(y) < 0.8)) | ((np.abs(y) < 0.8) & (np.abs(z) < 0.8))
        v = v.astype(float) * (r < 3.6)
    return (v + rng.normal(0, 0.3, v.shape)).astype(np.float32)


def dataset(n, rng):
    y = rng.integers(0, 3, n)
    return torch.tensor(np.stack([particle(k, rng) for k in y]))[:, None], torch.tensor(y)


class VoxNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv3d(1, 8, 3, padding=1)
        self.c2 = nn.Conv3d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16, 3)

    def forward(self, x):
        x = F.max_pool3d(F.relu(self.c1(x)), 2)
        x = F.relu(self.c2(x)).amax(dim=(2, 3, 4))
        return F.log_softmax(self.fc(x), dim=1)


@torch.no_grad()
def ema_update(ema, model, decay=0.95):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm, alpha=1 - decay)


def main():
    rng = np.random.default_rng(SEED)
    torch.manual_seed(SEED)
    Xtr, ytr = dataset(900, rng)
    Xva, yva = dataset(300, rng)
    model = VoxNet()
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    nll = nn.NLLLoss()
    for ep in range(6):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(Xtr), 32):
            idx = perm[i:i + 32]
            loss = nll(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model)
        with torch.no_grad():
            acc = (ema(Xva).argmax(1) == yva).float().mean().item()
        print(f"epoch {ep} loss {loss.item():.4f} ema_val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
