import math

import torch.nn.functional as F


def lm_loss(logits, targets):
    """Token-level cross entropy (nats) for a causal LM.

    logits: (B, T, V) where position t has seen tokens <= t
    targets: (B, T)
    """
    V = logits.size(-1)
    return F.cross_entropy(logits[:, :-1].reshape(-1, V), targets[:, 1:].reshape(-1))


def to_bpc(nats):
    return nats / math.log(2)
