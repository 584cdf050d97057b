import torch


def batch_hard_triplet(emb, labels, margin=0.2):
    """Hermans et al. 2017: for each anchor the farthest positive and the closest negative.

    Mining is done on detached distances (pure index selection); the loss itself is
    recomputed from the embeddings so that gradients flow to anchor, positive and negative.
    """
    with torch.no_grad():
        d = torch.cdist(emb, emb)
        same = labels.unsqueeze(0) == labels.unsqueeze(1)
        eye = torch.eye(len(labels), dtype=torch.bool, device=emb.device)
        pos_d = d.masked_fill(~same | eye, -1.0)
        neg_d = d.masked_fill(same, float("inf"))
        hardest_pos = pos_d.argmax(dim=1)
        hardest_neg = neg_d.argmin(dim=1)
    d_ap = (emb - emb[hardest_pos]).norm(dim=1)
    d_an = (emb - emb[hardest_neg]).norm(dim=1)
    losses = torch.clamp(d_ap - d_an + margin, min=0.0)
    active = (losses > 0).float().mean().item()
    return losses.mean(), active
