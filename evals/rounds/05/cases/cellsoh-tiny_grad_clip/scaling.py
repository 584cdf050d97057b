import torch


class StaticLossScaler:
    """Minimal fixed-scale loss scaler: scale the loss, unscale grads in place, skip
    the step if any gradient overflowed."""

    def __init__(self, scale):
        self.scale = float(scale)

    def scale_loss(self, loss):
        return loss * self.scale

    @torch.no_grad()
    def unscale_(self, params):
        finite = True
        for p in params:
            if p.grad is not None:
                p.grad.div_(self.scale)
                finite &= bool(torch.isfinite(p.grad).all())
        return finite
