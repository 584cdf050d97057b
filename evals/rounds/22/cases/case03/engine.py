import torch
import torch.nn.functional as F

from model import poisson_deviance


def train_one_epoch(model, loader, optimizer, scheduler):
    model.train()
    total, n = 0.0, 0
    for x, y, off in loader:
        log_mu = model(x, off)
        loss = F.poisson_nll_loss(log_mu, y, log_input=True, full=False)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        total += loss.item() * len(y)
        n += len(y)
    return total / n


@torch.no_grad()
def evaluate(model, x, y, off):
    model.eval()
    return poisson_deviance(model(x, off), y).item()
