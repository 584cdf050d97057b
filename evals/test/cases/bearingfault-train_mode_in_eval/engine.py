import time

import torch


class SmoothedValue:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def update(self, value, n=1):
        self.total += value * n
        self.count += n

    @property
    def global_avg(self):
        return self.total / max(1, self.count)


def train_one_epoch(model, criterion, optimizer, data_loader, epoch, print_freq=20):
    model.train()
    loss_meter, acc_meter = SmoothedValue(), SmoothedValue()
    start = time.time()
    for i, (spectra, target) in enumerate(data_loader):
        output = model(spectra)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_meter.update(loss.item(), len(target))
        acc_meter.update((output.argmax(1) == target).float().mean().item(), len(target))
        if i % print_freq == 0:
            print(f"Epoch: [{epoch}] [{i}/{len(data_loader)}] loss: {loss.item():.4f}")
    print(f"Epoch: [{epoch}] done in {time.time() - start:.1f}s  "
          f"loss {loss_meter.global_avg:.4f}  acc {acc_meter.global_avg:.3f}")


def evaluate(model, criterion, data_loader):
    loss_meter, acc_meter = SmoothedValue(), SmoothedValue()
    with torch.inference_mode():
        for spectra, target in data_loader:
            output = model(spectra)
            loss_meter.update(criterion(output, target).item(), len(target))
            acc_meter.update((output.argmax(1) == target).float().mean().item(), len(target))
    print(f"Test: loss {loss_meter.global_avg:.4f}  Acc@1 {acc_meter.global_avg:.3f}")
    return acc_meter.global_avg
