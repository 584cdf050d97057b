import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from .metrics import accuracy
from .model import VoxelNet
from .voxels import make_split


def train(args):
    torch.manual_seed(args.seed)
    train_dl = DataLoader(make_split(900, args.seed), batch_size=32, shuffle=True)
    val_dl = DataLoader(make_split(300, args.seed + 100), batch_size=100)
    model = VoxelNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for ep in range(args.epochs):
        model.train()
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {ep} loss {loss.item():.3f}")
    return accuracy(model, val_dl)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    print(f"val_acc={train(ap.parse_args()):.4f}")
