import torch


def dcg_at_k(gains, k):
    """gains: (Q, L) relevance in ranked order."""
    gains = gains[:, :k]
    discounts = torch.log2(torch.arange(2, gains.shape[1] + 2, dtype=torch.float32))
    return ((2.0 ** gains - 1) / discounts).sum(1)


def ndcg_at_k(scores, relevance, k=10):
    """Mean NDCG@k; scores and relevance are (Q, L)."""
    order = torch.argsort(scores, dim=1)
    ranked = torch.gather(relevance, 1, order)
    ideal = torch.sort(relevance, dim=1, descending=True).values
    idcg = dcg_at_k(ideal, k)
    ndcg = dcg_at_k(ranked, k) / idcg.clamp_min(1e-9)
    return ndcg[idcg > 0].mean().item()
