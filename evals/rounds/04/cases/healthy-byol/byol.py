import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

LEN = 64


def make_snippets(n, seed):
    rng = np.random.default_rng(seed)
    protos = np.random.default_rng(100).normal(size=(10, 6))
    t = np.linspace(0, 1, LEN)
    y = rng.integers(0, 10, n)
    X = np.zeros((n, LEN), np.float32)
    for i in range(n):
        a = protos[y[i]]
        X[i] = (a[0] * np.sin(2 * np.pi * (2 + 3 * abs(a[1])) * t + a[2]) + a[3] * np.exp(-((t - 0.5 - 0.2 * a[4]) ** 2) / 0.01)
                + 0.3 * a[5] * t + 0.2 * rng.normal(size=LEN))
    return torch.from_numpy(X), torch.from_numpy(y)


def augment(x):
    gain = 0.7 + 0.6 * torch.rand(x.size(0), 1)
    shift = torch.randint(-4, 5, (1,)).item()
    x = torch.roll(x * gain, shifts=shift, dims=1)
    x = x + 0.1 * torch.randn_like(x)
    keep = (torch.rand_like(x) > 0.1).float()
    return x * keep


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))


class BYOL(nn.Module):
    def __init__(self, rep=64, proj=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(LEN, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, rep))
        self.projector = mlp(rep, 128, proj)
        self.predictor = mlp(proj, 128, proj)
        self.target_encoder = copy.deepcopy(self.encoder).requires_grad_(False)
        self.target_projector = copy.deepcopy(self.projector).requires_grad_(False)

    def loss(self, v1, v2):
        p1 = self.predictor(self.projector(self.encoder(v1)))
        p2 = self.predictor(self.projector(self.encoder(v2)))
        with torch.no_grad():
            z1 = self.target_projector(self.target_encoder(v1))
            z2 = self.target_projector(self.target_encoder(v2))
        # regression of the online prediction onto the other view's target (stop-gradient on the target)
        l = 2 - 2 * F.cosine_similarity(p1, z2.detach(), dim=-1) + 2 - 2 * F.cosine_similarity(p2, z1.detach(), dim=-1)
        return l.mean()

    @torch.no_grad()
    def update_target(self, tau):
        for online, target in ((self.encoder, self.target_encoder), (self.projector, self.target_projector)):
            for po, pt in zip(online.parameters(), target.parameters()):
                pt.data.mul_(tau).add_(po.data, alpha=1 - tau)
            for bo, bt in zip(online.buffers(), target.buffers()):
                bt.copy_(bo)


@torch.no_grad()
def knn_accuracy(encoder, xtr, ytr, xte, yte, k=10):
    encoder.eval()
    ftr = F.normalize(encoder(xtr), dim=1)
    fte = F.normalize(encoder(xte), dim=1)
    idx = (fte @ ftr.T).topk(k, dim=1).indices
    votes = F.one_hot(ytr[idx], 10).sum(1)
    return (votes.argmax(1) == yte).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--tau", type=float, default=0.99)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    unl, _ = make_snippets(4000, 1)
    xtr, ytr = make_snippets(500, 2)
    xte, yte = make_snippets(500, 3)
    model = BYOL()
    online = list(model.encoder.parameters()) + list(model.projector.parameters()) + list(model.predictor.parameters())
    opt = torch.optim.Adam(online, lr=args.lr)
    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(unl))
        tot = 0.0
        for s in range(0, len(unl) - args.batch + 1, args.batch):
            x = unl[perm[s:s + args.batch]]
            loss = model.loss(augment(x), augment(x))
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.update_target(args.tau)
            tot += loss.item()
        if epoch % 5 == 0 or epoch == 1:
            acc = knn_accuracy(model.encoder, xtr, ytr, xte, yte)
            print(f"epoch {epoch:3d} byol_loss {tot / (len(unl) // args.batch):.4f} knn_acc {acc:.3f}")
    acc = knn_accuracy(model.encoder, xtr, ytr, xte, yte)
    print(f"knn_acc={acc:.4f}")


if __name__ == "__main__":
    main()
