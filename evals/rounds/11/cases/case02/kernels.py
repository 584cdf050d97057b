import torch
import torch.nn as nn
import torch.nn.functional as F


def softplus_inv(y):
    return y + torch.log(-torch.expm1(-y))


class ARDRBFRegressor(nn.Module):
    """Sparse RBF-kernel regressor (a GP posterior mean in all but name).

    f(x) = sum_m alpha_m k(x, z_m) + b with an ARD squared-exponential kernel;
    inducing locations z, weights alpha, signal scale and one lengthscale per
    input dimension are all learned. Lengthscales and the signal scale are kept
    positive through a softplus.
    """

    def __init__(self, n_inputs, n_inducing, init_lengthscale=0.7, init_points=None):
        super().__init__()
        if init_points is None:
            init_points = torch.randn(n_inducing, n_inputs)
        self.inducing = nn.Parameter(init_points.clone())
        self.alpha = nn.Parameter(torch.zeros(n_inducing))
        self.bias = nn.Parameter(torch.zeros(()))
        self.raw_scale = nn.Parameter(softplus_inv(torch.tensor(1.0)))
        raw = softplus_inv(torch.tensor(float(init_lengthscale)))
        self.raw_lengthscales = [nn.Parameter(raw.clone()) for _ in range(n_inputs)]

    def lengthscales(self):
        return F.softplus(torch.stack(list(self.raw_lengthscales)))

    def kernel(self, a, b):
        ls = self.lengthscales()
        d2 = torch.cdist(a / ls, b / ls).pow(2)
        return F.softplus(self.raw_scale) * torch.exp(-0.5 * d2)

    def forward(self, x):
        return self.kernel(x, self.inducing) @ self.alpha + self.bias
