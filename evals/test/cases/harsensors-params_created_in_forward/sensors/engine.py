import torch
import torch.nn.functional as F


def train_epoch(model, loader, optimizer):
    model.train()
    total, n = 0.0, 0
    for windows, activity in loader:
        loss = F.cross_entropy(model(windows), activity)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(activity)
        n += len(activity)
    return total / n


@torch.no_grad()
def evaluate(model, loader, n_classes):
    model.eval()
    confusion = torch.zeros(n_classes, n_classes, dtype=torch.long)
    for windows, activity in loader:
        pred = model(windows).argmax(-1)
        for t, p in zip(activity.tolist(), pred.tolist()):
            confusion[t, p] += 1
    acc = confusion.diag().sum().item() / confusion.sum().item()
    recall = confusion.diag().float() / confusion.sum(1).clamp(min=1).float()
    return acc, recall
