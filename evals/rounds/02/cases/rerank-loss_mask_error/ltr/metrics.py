import torch


def ndcg_at_k(scores, rels, pad_mask, k=10):
    """Mean NDCG@k over queries; padded slots are ignored."""
    scores = scores.masked_fill(pad_mask, float("-inf"))
    gains = (2.0 ** rels.clamp(min=0).float() - 1.0).masked_fill(pad_mask, 0.0)
    discount = 1.0 / torch.log2(torch.arange(2, scores.shape[1] + 2).float())
    order = scores.argsort(dim=1, descending=True)
    dcg = (gains.gather(1, order) * discount)[:, :k].sum(1)
    ideal = (gains.sort(dim=1, descending=True).values * discount)[:, :k].sum(1)
    keep = ideal > 0
    return (dcg[keep] / ideal[keep]).mean().item()
