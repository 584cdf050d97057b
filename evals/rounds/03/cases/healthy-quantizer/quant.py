"""Low-bit activations with a straight-through estimator, and fake-quantized weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RoundClipSTE(torch.autograd.Function):
    """Forward: clip to [-1, 1] and round to 2**bits - 1 uniform levels.
    Backward: identity inside the clipping range, zero outside (clipped STE)."""

    @staticmethod
    def forward(ctx, x, bits):
        ctx.save_for_backward(x)
        levels = 2 ** bits - 1
        return torch.round((x.clamp(-1, 1) + 1) / 2 * levels) / levels * 2 - 1

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * (x.abs() <= 1).to(grad_out.dtype), None


class QuantAct(nn.Module):
    def __init__(self, bits=3):
        super().__init__()
        self.bits = bits
        self.register_buffer("seen_max", torch.zeros(()))   # statistics only, for the log

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self.seen_max.copy_(torch.maximum(self.seen_max, x.detach().abs().max()))
        return RoundClipSTE.apply(x, self.bits)


class QuantLinear(nn.Linear):
    """Weights fake-quantized per output row to `bits`; gradients flow to the float weights."""

    def __init__(self, *args, bits=4, **kwargs):
        super().__init__(*args, **kwargs)
        self.bits = bits

    def forward(self, x):
        w = self.weight
        scale = w.detach().abs().amax(dim=1, keepdim=True).clamp_min(1e-8)
        levels = 2 ** (self.bits - 1) - 1
        wq = torch.round(w / scale * levels) / levels * scale
        w = w + (wq - w).detach()                           # straight-through
        return F.linear(x, w, self.bias)


class QuantMLP(nn.Module):
    def __init__(self, n_in, n_classes, hidden=96, act_bits=4, w_bits=4):
        super().__init__()
        self.fc1 = QuantLinear(n_in, hidden, bits=w_bits)
        self.act1 = QuantAct(act_bits)
        self.fc2 = QuantLinear(hidden, hidden, bits=w_bits)
        self.act2 = QuantAct(act_bits)
        self.out = nn.Linear(hidden, n_classes)             # classifier kept in float

    def forward(self, x):
        x = self.act1(torch.tanh(self.fc1(x.flatten(1))))
        x = self.act2(torch.tanh(self.fc2(x)))
        return self.out(x)
