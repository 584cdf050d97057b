"""Train SpiralNet on three interleaved spirals. Expected: validation accuracy above 0.9."""

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from data import spiral
from model import SpiralNet

torch.manual_seed(0)
x, y = spiral()
split = int(0.8 * len(y))
train = DataLoader(TensorDataset(x[:split], y[:split]), batch_size=32, shuffle=True)
val_x, val_y = x[split:], y[split:]

model = SpiralNet()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)

for epoch in range(30):
    model.train()
    for xb, yb in train:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        acc = (model(val_x).argmax(dim=1) == val_y).float().mean().item()
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1}: loss {loss.item():.3f}  val_acc {acc:.3f}")
print(f"METRIC val_acc={acc:.3f}")
