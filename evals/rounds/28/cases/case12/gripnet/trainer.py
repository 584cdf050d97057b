import torch
from torch import nn


class Trainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.optimizer = torch.optim.SGD(model.parameters(), lr=cfg["optim"]["lr"],
                                         momentum=cfg["optim"]["momentum"],
                                         weight_decay=cfg["optim"]["weight_decay"])
        self.criterion = nn.CrossEntropyLoss()
        self.step = 0

    def train_step(self, xb, yb):
        self.model.train()
        loss = self.criterion(self.model(xb), yb)
        loss.backward()
        if self.cfg["train"]["clip_grad"]:
            nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg["train"]["max_grad_norm"])
            self.optimizer.step()
            self.optimizer.zero_grad(set_to_none=True)
        else:
            self.optimizer.step()
        self.step += 1
        return loss.item()

    @torch.no_grad()
    def accuracy(self, X, y):
        self.model.eval()
        return (self.model(X).argmax(1) == y).float().mean().item()
