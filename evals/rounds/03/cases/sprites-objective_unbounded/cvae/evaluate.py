import torch
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence


@torch.no_grad()
def negative_elbo(model, x, y, n_samples=4):
    """Per-example -ELBO in nats (single-sample estimate averaged over n_samples)."""
    model.eval()
    mu, logvar = model.encode(x, y)
    q = Normal(mu, torch.exp(0.5 * logvar))
    kl = kl_divergence(q, Normal(torch.zeros_like(mu), torch.ones_like(mu))).sum(1)
    rec = 0.0
    for _ in range(n_samples):
        logits = model.decode(q.sample(), y)
        rec = rec + F.binary_cross_entropy_with_logits(logits, x, reduction="none").sum(1)
    model.train()
    return (rec / n_samples + kl).mean().item(), kl.mean().item()
