import torch
import torch.nn.functional as F


def make_scheduler(opt, cfg):
    if cfg["name"] == "step":
        return torch.optim.lr_scheduler.StepLR(opt, step_size=cfg["step_size"], gamma=cfg["gamma"])
    if cfg["name"] == "none":
        return None
    raise ValueError(cfg["name"])


def train_one_epoch(model, batches, opt, sched):
    model.train()
    total, n = 0.0, 0
    for a, b, y in batches:
        loss = F.binary_cross_entropy_with_logits(model(a, b), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        total += loss.item() * len(y)
        n += len(y)
    return total / n


@torch.no_grad()
def evaluate(model, A, B, Y):
    model.eval()
    logits = model(A, B)
    acc = ((logits > 0).float() == Y).float().mean().item()
    return acc
