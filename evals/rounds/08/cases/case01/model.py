import torch
import torch.nn as nn


class SharedEncoder(nn.Module):
    def __init__(self, n_in, width=128):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, width), nn.GELU(),
            nn.Linear(width, width), nn.GELU(),
        )

    def forward(self, x):
        return self.body(x)


class AlloyNet(nn.Module):
    def __init__(self, n_in, n_classes, width=128):
        super().__init__()
        self.encoder = SharedEncoder(n_in, width)
        self.cls_head = nn.Linear(width, n_classes)
        self.reg_head = nn.Sequential(nn.Linear(width, 64), nn.GELU(), nn.Linear(64, 1))

    def forward(self, x):
        h = self.encoder(x)
        return self.cls_head(h), self.reg_head(h)


class UncertaintyWeighting(nn.Module):
    """Learned log-variances s_t, one per task."""

    def __init__(self, n_tasks=2):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(n_tasks))

    def forward(self, cls_loss, reg_sq_err):
        s_cls, s_reg = self.log_vars[0], self.log_vars[1]
        total = torch.exp(-s_cls) * cls_loss + s_cls
        total = total + 0.5 * torch.exp(-s_reg) * reg_sq_err + 0.5 * s_reg
        return total
