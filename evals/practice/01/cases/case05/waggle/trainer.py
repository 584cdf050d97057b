import math
import time

import torch


def angular_error_deg(pred_vec, angle):
    est = torch.atan2(pred_vec[:, 0], pred_vec[:, 1])
    diff = torch.remainder(est - angle + math.pi, 2 * math.pi) - math.pi
    return diff.abs() * 180.0 / math.pi


class Trainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=cfg["momentum"], nesterov=True)
        self.step = 0
        self.t0 = time.time()
        self.recent = []

    def loss(self, xy, angle):
        target = torch.stack([torch.sin(angle), torch.cos(angle)], 1)
        return (1 - (self.model(xy) * target).sum(1)).mean()

    def _log(self):
        if self.step % self.cfg["log_every"] == 0:
            avg = sum(self.recent) / max(len(self.recent), 1)
            print(f"step {self.step:5d}  loss {avg:.4f}  ({time.time() - self.t0:.1f}s)")
            self.recent.clear()
            self.opt.zero_grad()

    def train_step(self, xy, angle):
        self.model.train()
        loss = self.loss(xy, angle)
        loss.backward()
        self.opt.step()
        self.step += 1
        self.recent.append(loss.item())
        self._log()

    @torch.no_grad()
    def evaluate(self, X, ang):
        self.model.eval()
        return angular_error_deg(self.model(X), ang).mean().item()
