import torch
import torch.nn as nn


class SlantNet(nn.Module):
    def __init__(self, width=32, p_drop=0.2):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(3, width, 5, padding=2), nn.BatchNorm1d(width), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2), nn.BatchNorm1d(width), nn.ReLU(),
            nn.Conv1d(width, width, 3, padding=1), nn.BatchNorm1d(width), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Dropout(p_drop), nn.Linear(2 * width, width), nn.ReLU(),
                                  nn.Linear(width, 1))

    def forward(self, x):
        h = self.encoder(x)
        return self.head(torch.cat([h.mean(-1), h.amax(-1)], 1)).squeeze(-1)


class Trainer:
    def __init__(self, model, lr, target_scale, epochs):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.sched = torch.optim.lr_scheduler.CosineAnnealingLR(self.opt, T_max=epochs)
        self.scale = target_scale  # degrees per unit of network output

    def _run(self, loader, training):
        if training:
            self.model.train()
        else:
            self.model.eval
        total_err, n = 0.0, 0
        for x, y in loader:
            with torch.set_grad_enabled(training):
                pred = self.model(x)
                loss = nn.functional.smooth_l1_loss(pred, y / self.scale)
            if training:
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            total_err += (pred.detach() * self.scale - y).abs().sum().item()
            n += len(y)
        return total_err / n

    def fit_epoch(self, loader):
        err = self._run(loader, training=True)
        self.sched.step()
        return err

    def validate(self, loader):
        return self._run(loader, training=False)
