import torch


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    correct, seen = 0, 0
    for batch in loader:
        x, y = batch
        correct += (model(x).argmax(dim=1) == y).sum().item()
        seen += len(batch)
    return correct / max(seen, 1)
