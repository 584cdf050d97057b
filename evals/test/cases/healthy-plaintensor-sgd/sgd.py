import torch


class MomentumSGD:
    """Minimal SGD with heavy-ball momentum for a list of leaf tensors."""

    def __init__(self, params, lr, momentum=0.9):
        self.params = list(params)
        self.lr = lr
        self.momentum = momentum
        self.velocity = [torch.zeros_like(p) for p in self.params]

    @torch.no_grad()
    def step(self):
        for p, v in zip(self.params, self.velocity):
            if p.grad is None:
                continue
            v.mul_(self.momentum).add_(p.grad)
            p -= self.lr * v

    def zero_grad(self):
        for p in self.params:
            p.grad = None
