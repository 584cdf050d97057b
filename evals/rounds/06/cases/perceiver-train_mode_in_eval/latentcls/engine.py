from contextlib import contextmanager

import torch
import torch.nn.functional as F


@contextmanager
def evaluating(model):
    """Temporarily switch to inference behaviour, restore the previous mode afterwards."""
    was_training = model.training
    model.train(was_training)
    try:
        with torch.no_grad():
            yield model
    finally:
        model.train(was_training)


def train_one_epoch(model, loader, opt):
    model.train()
    total = 0.0
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(y)
    return total / len(loader.dataset)


def validate(model, loader):
    correct = n = 0
    with evaluating(model):
        for x, y in loader:
            correct += (model(x).argmax(dim=1) == y).sum().item()
            n += len(y)
    return correct / n
