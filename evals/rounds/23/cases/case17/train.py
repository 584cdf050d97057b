import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from boards import MAX_BOARD, N_CHEESES, N_WINES, make_boards, soft_targets


class BoardEncoder(nn.Module):
    def __init__(self, emb=32, hidden=64):
        super().__init__()
        self.cheese = nn.Embedding(N_CHEESES, emb)
        self.phi = nn.Sequential(nn.Linear(emb, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.rho = nn.Sequential(nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, N_WINES))

    def forward(self, ids, mask):
        h = self.phi(self.cheese(ids)) * mask.unsqueeze(-1)
        pooled = h.sum(1) / mask.sum(1, keepdim=True)
        return self.rho(pooled)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    ids, mask, aff = make_boards(6000, seed=1)
    vids, vmask, vaff = make_boards(1500, seed=2)
    target = soft_targets(aff)

    model = BoardEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ids))
        for i in range(0, len(perm), 128):
            idx = perm[i:i + 128]
            logp = F.log_softmax(model(ids[idx], mask[idx]), dim=-1)
            loss = -(target[idx] * logp).sum(-1).mean()
            opt.zero_grad(); loss.backward(); opt.step()
        model.eval()
        with torch.no_grad():
            top1 = (model(vids, vmask).argmax(-1) == vaff.argmax(-1)).float().mean().item()
        if (epoch + 1) % 4 == 0:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} top1={top1:.3f}")
    print(f"top1={top1:.4f}")


if __name__ == "__main__":
    main()
