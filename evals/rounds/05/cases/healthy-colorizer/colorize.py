import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from scenes import make_scenes


class Encoder(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, c, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(c, c, 3, padding=2, dilation=2), nn.ReLU(),
                                 nn.Conv2d(c, c, 3, padding=4, dilation=4), nn.ReLU())

    def forward(self, x):
        return self.net(x)


class ChromaHead(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(c + 1, 2 * c, 1), nn.ReLU(),
                                 nn.Conv2d(2 * c, 2 * c, 3, padding=1), nn.ReLU(), nn.Conv2d(2 * c, 2, 1))

    def forward(self, feats, L):
        L = (L - 0.5) / 0.2                                        # roughly standardized lightness
        return torch.tanh(self.net(torch.cat([feats, L], 1)))     # ab lives in [-1, 1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pretrain-epochs", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    L_tr, ab_tr = make_scenes(500, seed=args.seed)
    L_va, ab_va = make_scenes(120, seed=args.seed + 1)
    enc, head = Encoder(), ChromaHead()

    # stage 1: lightness autoencoder to pre-train the encoder
    recon = nn.Conv2d(16, 1, 1)
    opt = torch.optim.Adam(list(enc.parameters()) + list(recon.parameters()), lr=args.lr)
    for epoch in range(args.pretrain_epochs):
        for i in range(0, len(L_tr), 32):
            x = L_tr[i:i + 32]
            loss = F.mse_loss(recon(enc(x)), x)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"pretrain {epoch + 1} recon_mse {loss.item():.5f}")

    # stage 2: encoder stays fixed on purpose; only the chroma head learns
    enc.requires_grad_(False)
    enc.eval()
    opt = torch.optim.Adam(head.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(L_tr))
        peak = 0.0
        for i in range(0, len(perm), 16):
            idx = perm[i:i + 16]
            with torch.no_grad():
                feats = enc(L_tr[idx])
            loss = F.mse_loss(head(feats, L_tr[idx]), ab_tr[idx])
            opt.zero_grad()
            loss.backward()
            peak = max(peak, float(nn.utils.clip_grad_norm_(head.parameters(), max_norm=25.0)))
            opt.step()
        with torch.no_grad():
            mse = F.mse_loss(head(enc(L_va), L_va), ab_va).item()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} max_grad_norm {peak:.3f} val_ab_mse {mse:.4f}")
    print(f"grey baseline mse {ab_va.pow(2).mean().item():.4f}")
    print(f"val_ab_mse={mse:.4f}")


if __name__ == "__main__":
    main()
