import torch


class SignatureWorld:
    """Classes = latent points; samples = sensor(latent + jitter) ++ nuisance channels."""

    def __init__(self, n_classes=80, latent=6, informative=24, nuisance=40, seed=3):
        g = torch.Generator().manual_seed(seed)
        self.centers = torch.randn(n_classes, latent, generator=g) * 1.5
        self.w1 = torch.randn(latent, 48, generator=g) / latent ** 0.5
        self.w2 = torch.randn(48, informative, generator=g) / 48 ** 0.5
        self.nuisance = nuisance
        self.g = torch.Generator().manual_seed(seed + 1)

    def sample(self, cls, n):
        z = self.centers[cls] + 0.45 * torch.randn(n, self.centers.shape[1], generator=self.g)
        inf = torch.tanh(z @ self.w1) @ self.w2
        nui = 3.0 * torch.randn(n, self.nuisance, generator=self.g)
        return torch.cat([inf, nui], dim=1)

    def episode(self, classes, n_way, k_shot, n_query):
        picked = classes[torch.randperm(len(classes), generator=self.g)[:n_way]]
        support, query = [], []
        for c in picked.tolist():
            x = self.sample(c, k_shot + n_query)
            support.append(x[:k_shot])
            query.append(x[k_shot:])
        qy = torch.arange(n_way).repeat_interleave(n_query)
        return torch.stack(support), torch.cat(query), qy
