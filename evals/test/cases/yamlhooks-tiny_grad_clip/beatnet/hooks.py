"""Hooks run between backward() and optimizer.step()."""
import logging

import torch

log = logging.getLogger(__name__)


class GradClipHook:
    def __init__(self, max_norm):
        self.max_norm = max_norm
        self.last_norm = None

    def __call__(self, model, step):
        self.last_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), self.max_norm).item()


class GradNormLogger:
    def __init__(self, clip_hook, every):
        self.clip_hook = clip_hook
        self.every = every

    def __call__(self, model, step):
        if self.every and step % self.every == 0 and self.clip_hook.last_norm is not None:
            log.info("step %5d  grad_norm %.3f", step, self.clip_hook.last_norm)


class NonFiniteGuard:
    def __call__(self, model, step):
        for name, p in model.named_parameters():
            if p.grad is not None and not torch.isfinite(p.grad).all():
                raise FloatingPointError(f"non-finite gradient in {name} at step {step}")


def build_hooks(cfg):
    clip = GradClipHook(cfg["optim"]["max_grad_norm"])
    return [NonFiniteGuard(), clip, GradNormLogger(clip, cfg["logging"]["grad_norm_every"])]
