import torch


def grade_accuracy(logits, target):
    return (logits.argmax(-1) == target).float().mean().item()


def mean_abs_grade_error(logits, target):
    grades = torch.arange(logits.shape[-1], dtype=logits.dtype)
    expected = (logits.softmax(-1) * grades).sum(-1)
    return (expected - target.view(-1).to(logits.dtype)).abs().mean().item()
