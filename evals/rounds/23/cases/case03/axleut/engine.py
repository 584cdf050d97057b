import numpy as np
import torch


def average_precision(scores, labels):
    order = np.argsort(-scores)
    labels = labels[order]
    hits = np.cumsum(labels)
    precision = hits / np.arange(1, len(labels) + 1)
    return float((precision * labels).sum() / max(labels.sum(), 1))


class Trainer:
    def __init__(self, model, criterion, optimizer):
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for scans, target in loader:
            logits = self.model(scans)
            loss = self.criterion(target, logits)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item() * len(target)
        return total / len(loader.dataset)

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        scores, labels = [], []
        for scans, target in loader:
            scores.append(torch.sigmoid(self.model(scans)).numpy())
            labels.append(target.numpy())
        scores, labels = np.concatenate(scores), np.concatenate(labels)
        scores = np.nan_to_num(scores, nan=0.0)
        return average_precision(scores, labels)
