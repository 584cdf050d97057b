import torch


def offset_poisson_nll(counts, log_rate, exposure):
    """Poisson negative log-likelihood with an exposure offset.

    Argument order follows the y_true, y_pred convention used by the pricing
    notebooks.  The log(y!) term is dropped (constant in the parameters).
    """
    log_mu = log_rate + torch.log(exposure)
    return (torch.exp(log_mu) - counts * log_mu).mean()


def poisson_deviance(counts, mu):
    """Mean unit deviance, 2 * (y log(y/mu) - (y - mu))."""
    term = torch.where(counts > 0, counts * torch.log(counts / mu), torch.zeros_like(mu))
    return (2.0 * (term - (counts - mu))).mean()
