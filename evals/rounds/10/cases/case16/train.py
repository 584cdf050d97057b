import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from dataset import TransitionDataset
from rollouts import collect


class Policy(nn.Module):
    def __init__(self, obs_dim=4, hidden=64, n_actions=3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(obs_dim, hidden), nn.Tanh(),
            nn.Linear(hidden, hidden), nn.Tanh(),
        )
        self.logits = nn.Linear(hidden, n_actions)

    def forward(self, obs):
        return self.logits(self.body(obs))


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=25)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--train-episodes", type=int, default=60)
    p.add_argument("--val-episodes", type=int, default=20)
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


@torch.no_grad()
def evaluate(policy, loader):
    policy.eval()
    correct = total = 0
    for obs, act in loader:
        pred = policy(obs).argmax(dim=1)
        correct += (pred == act).sum().item()
        total += act.numel()
    return correct / total


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    train_eps = collect(args.train_episodes, args.steps, seed=100 + args.seed)
    val_eps = collect(args.val_episodes, args.steps, seed=999 + args.seed,
                      start=args.train_episodes)
    train_ds = TransitionDataset(train_eps)
    val_ds = TransitionDataset(val_eps, train_ds.obs_mean, train_ds.obs_std)
    print(f"transitions: train={len(train_ds)} val={len(val_ds)}")

    train_loader = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=512)

    policy = Policy()
    opt = torch.optim.Adam(policy.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        policy.train()
        running = 0.0
        for obs, act in train_loader:
            opt.zero_grad()
            loss = loss_fn(policy(obs), act)
            loss.backward()
            opt.step()
            running += loss.item() * len(act)
        if epoch % 5 == 4 or epoch == args.epochs - 1:
            acc = evaluate(policy, val_loader)
            print(f"epoch {epoch+1:3d} train_loss={running/len(train_ds):.4f} val_acc={acc:.4f}")

    acc = evaluate(policy, val_loader)
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
