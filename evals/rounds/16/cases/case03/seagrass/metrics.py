import torch


def flatten_logits(logits):
    """(B, C, H, W) logits -> (B*H*W, C) rows for the pixel-wise loss."""
    n_classes = logits.shape[1]
    return logits.reshape(-1, n_classes)


def flatten_targets(mask):
    return mask.reshape(-1)


@torch.no_grad()
def class_iou(logits, mask, cls=1):
    pred = logits.argmax(dim=1)
    inter = ((pred == cls) & (mask == cls)).sum().item()
    union = ((pred == cls) | (mask == cls)).sum().item()
    return inter, union
