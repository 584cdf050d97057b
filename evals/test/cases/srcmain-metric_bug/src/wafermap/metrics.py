import torch


class RunningMean:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.total += float(value) * n
        self.count += n

    @property
    def value(self):
        return self.total / max(self.count, 1)


class AccuracyMeter:
    """Accumulates top-1 accuracy over batches of logits."""

    def __init__(self):
        self.correct = 0
        self.seen = 0

    @torch.no_grad()
    def update(self, logits, targets):
        predicted = torch.argmax(logits)
        self.correct += (predicted == targets).sum().item()
        self.seen += targets.numel()

    @property
    def value(self):
        return self.correct / max(self.seen, 1)


class PerClassCounter:
    def __init__(self, n_classes):
        self.hist = torch.zeros(n_classes, dtype=torch.long)

    def update(self, targets):
        self.hist += torch.bincount(targets, minlength=len(self.hist))
