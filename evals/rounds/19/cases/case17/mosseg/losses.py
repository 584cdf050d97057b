import torch.nn.functional as F


def pixel_ce(logits, masks, class_weights=None):
    """Cross-entropy over all pixels, flattened to (pixels, classes)."""
    n_classes = logits.shape[1]
    flat_logits = logits.reshape(-1, n_classes)
    flat_masks = masks.reshape(-1)
    return F.cross_entropy(flat_logits, flat_masks, weight=class_weights)
