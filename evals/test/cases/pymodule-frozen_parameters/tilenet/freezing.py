"""Helpers for the head warm-up phase."""

BACKBONE_MODULES = ("stem", "blocks")


def freeze_backbone(model):
    n = 0
    for name, param in model.named_parameters():
        if name.split(".")[0] in BACKBONE_MODULES:
            param.requires_grad = False
            n += param.numel()
    return n


def unfreeze_backbone(model):
    n = 0
    for name, param in model.named_parameters():
        if name.startswith("backbone."):
            param.requires_grad = True
            n += param.numel()
    return n


def count_trainable(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
