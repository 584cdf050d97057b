import torch
import torch.nn.functional as F


def reconstruction(logits, x):
    """Bernoulli negative log-likelihood, summed over pixels, averaged over the batch."""
    return F.binary_cross_entropy_with_logits(logits, x, reduction="sum") / x.size(0)


def gaussian_kl(mu, logvar):
    # closed form KL(N(mu, sigma^2) || N(0, 1)), Kingma & Welling (2014), appendix B
    return 0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / mu.size(0)


def vae_loss(logits, x, mu, logvar, beta=1.0):
    rec = reconstruction(logits, x)
    kl = gaussian_kl(mu, logvar)
    return rec + beta * kl, rec, kl
