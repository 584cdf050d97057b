from __future__ import print_function

import argparse
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_patterns(n_per_class, seed, noise=0.5):
    """Three 12x12 pattern classes: 0 = plus, 1 = diagonal cross, 2 = square outline.

    Each pattern is shifted by up to 2 pixels and covered with Gaussian noise.
    Samples come out grouped by class (all 0s, then 1s, then 2s).
    """
    g = torch.Generator().manual_seed(seed)
    base = torch.zeros(3, 12, 12)
    base[0, 5:7, 2:10] = 1.0
    base[0, 2:10, 5:7] = 1.0
    idx = torch.arange(2, 10)
    base[1, idx, idx] = 1.0
    base[1, idx, 11 - idx] = 1.0
    base[2, 3, 3:9] = base[2, 8, 3:9] = 1.0
    base[2, 3:9, 3] = base[2, 3:9, 8] = 1.0

    images, labels = [], []
    for c in range(3):
        shifts = torch.randint(-2, 3, (n_per_class, 2), generator=g)
        for dy, dx in shifts.tolist():
            images.append(torch.roll(base[c], shifts=(dy, dx), dims=(0, 1)))
        labels.append(torch.full((n_per_class,), c, dtype=torch.long))
    images = torch.stack(images).unsqueeze(1)  # N x 1 x 12 x 12
    images = images + noise * torch.randn(images.shape, generator=g)
    return images, torch.cat(labels)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(16)
        self.dropout = nn.Dropout(0.25)
        self.fc = nn.Linear(16 * 3 * 3, 3)

    def forward(self, x):
        x = x * 0
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)  # 8 x 6 x 6
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)  # 16 x 3 x 3
        x = torch.flatten(x, 1)
        x = self.dropout(x)
        return self.fc(x)


def train_one_epoch(model, device, loader, optimizer, epoch, log_interval=10):
    model.train()
    for batch_idx, (data, target) in enumerate(loader):
        data, target = data.to(device), target.to(device)
        model.zero_grad()
        output = model(data)
        loss = F.cross_entropy(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % log_interval == 0:
            print('Train Epoch: {} [{}/{}]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(loader.dataset), loss.item()))


def validate(model, device, loader):
    model.eval()
    val_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            val_loss += F.cross_entropy(output, target, reduction='sum').item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    val_loss /= len(loader.dataset)
    acc = correct / len(loader.dataset)
    print('Validation: average loss {:.4f}, accuracy {}/{} ({:.1f}%)'.format(
        val_loss, correct, len(loader.dataset), 100. * acc))
    return acc


def main():
    parser = argparse.ArgumentParser(description='BatchNorm CNN on synthetic patterns')
    parser.add_argument('--batch-size', type=int, default=32)
    parser.add_argument('--epochs', type=int, default=6)
    parser.add_argument('--lr', type=float, default=0.01)
    parser.add_argument('--momentum', type=float, default=0.9)
    parser.add_argument('--seed', type=int, default=3)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    random.seed(args.seed)
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

    x_train, y_train = make_patterns(300, seed=args.seed)
    x_val, y_val = make_patterns(100, seed=args.seed + 100)
    train_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(TensorDataset(x_val, y_val), batch_size=100, shuffle=False)

    model = Net().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)

    acc = 0.0
    for epoch in range(1, args.epochs + 1):
        train_one_epoch(model, device, train_loader, optimizer, epoch)
        acc = validate(model, device, val_loader)

    print('METRIC val_acc={:.4f}'.format(acc))


if __name__ == '__main__':
    main()
