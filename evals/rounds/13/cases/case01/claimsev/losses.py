import torch


def gamma_deviance(y_true, y_pred, eps=1e-6):
    """Mean unit deviance of the Gamma distribution.

    d(y, mu) = 2 * (log(mu / y) + y / mu - 1)
    """
    y_true = y_true.clamp(min=eps)
    y_pred = y_pred.clamp(min=eps)
    return (2.0 * (torch.log(y_pred / y_true) + y_true / y_pred - 1.0)).mean()
