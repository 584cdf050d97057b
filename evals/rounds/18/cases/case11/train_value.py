import argparse

import torch
import torch.nn as nn

from positions import random_positions


class ValueNet(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(1, ch, 3, padding=1), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(ch * 64, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh())

    def forward(self, board):
        return self.head(self.trunk(board)).squeeze(1)


def fit(model, opt, X, y, epochs, bs=64, tag=""):
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(X))
        running = 0.0
        for i in range(0, len(perm), bs):
            b = perm[i:i + bs]
            loss = nn.functional.mse_loss(model(X[b]), y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(b)
        print(f"{tag} epoch {epoch + 1} mse={running / len(X):.4f}")


def sign_acc(model, X, y):
    model.eval()
    with torch.no_grad():
        return (torch.sign(model(X)) == torch.sign(y)).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--phase1-epochs", type=int, default=8)
    ap.add_argument("--phase2-epochs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    X, y, empt = map(torch.from_numpy, random_positions(6000, seed=1))
    Xva, yva, _ = map(torch.from_numpy, random_positions(1000, seed=2))

    model = ValueNet()
    fit(model, torch.optim.Adam(model.parameters(), lr=2e-3), X, y, args.phase1_epochs, tag="phase1")

    # phase 2: the trunk stays as it is; only the value head adapts to late-game boards
    model.trunk.requires_grad_(False)
    late = empt < 20
    head_opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-4)
    fit(model, head_opt, X[late], y[late], args.phase2_epochs, tag="phase2")

    print(f"val_sign_acc={sign_acc(model, Xva, yva):.4f}")


if __name__ == "__main__":
    main()
