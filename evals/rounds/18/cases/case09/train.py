import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from corpus import GENRES, PAD, make_transcripts


class MeanPoolClassifier(nn.Module):
    def __init__(self, n_buckets, dim=48, n_classes=len(GENRES)):
        super().__init__()
        self.emb = nn.Embedding(n_buckets, dim, padding_idx=PAD)
        self.drop = nn.Dropout(0.2)
        self.out = nn.Linear(dim, n_classes)

    def forward(self, tokens):
        is_pad = tokens == PAD                         # True on padding
        e = self.emb(tokens).masked_fill(is_pad.unsqueeze(-1), 0.0)
        pooled = e.sum(1) / (~is_pad).sum(1, keepdim=True).clamp(min=1)
        return F.log_softmax(self.out(self.drop(pooled)), dim=-1)


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm.detach(), alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--buckets", type=int, default=4096)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--ema", type=float, default=0.99)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    Xtr, ytr = map(torch.from_numpy, make_transcripts(3000, args.buckets, seed=1))
    Xva, yva = map(torch.from_numpy, make_transcripts(600, args.buckets, seed=2))

    model = MeanPoolClassifier(args.buckets)
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    nll = nn.NLLLoss()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            loss = nll(model(Xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, args.ema)
        ema.eval()
        with torch.no_grad():
            acc = (ema(Xva).argmax(-1) == yva).float().mean().item()
        print(f"epoch {epoch + 1} nll={loss.item():.4f} val_acc={acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
