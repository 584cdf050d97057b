"""Pieces of the (negative) evidence lower bound."""
import torch


def gaussian_nll(x, x_mean, log_sigma):
    """-log N(x | x_mean, sigma^2 I), summed over features."""
    var = torch.exp(2 * log_sigma)
    return 0.5 * (((x - x_mean) ** 2) / var + 2 * log_sigma + torch.log(torch.tensor(2 * torch.pi))).sum(-1)


def kl_to_standard_normal(mu, logvar):
    """KL( N(mu, diag(exp(logvar))) || N(0, I) ), per sample (Kingma & Welling, appendix B)."""
    return 0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=-1)


def negative_elbo(x, x_mean, log_sigma, mu, logvar, beta=1.0):
    rec = gaussian_nll(x, x_mean, log_sigma)
    kl = kl_to_standard_normal(mu, logvar)
    return (rec + beta * kl).mean(), rec.mean(), kl.mean()
