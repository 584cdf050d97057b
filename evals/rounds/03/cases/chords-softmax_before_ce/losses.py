import torch.nn as nn
import torch.nn.functional as F


class LabelSmoothingCrossEntropy(nn.Module):
    """Cross-entropy against (1 - eps) * one_hot + eps * uniform.

    Written out by hand because we also use it with soft targets elsewhere;
    numerically identical to F.cross_entropy(..., label_smoothing=eps).
    """

    def __init__(self, eps=0.1):
        super().__init__()
        self.eps = eps

    def forward(self, scores, target):
        logp = F.log_softmax(scores, dim=-1)
        nll = -logp.gather(1, target.unsqueeze(1)).squeeze(1)
        uniform = -logp.mean(dim=-1)
        return ((1.0 - self.eps) * nll + self.eps * uniform).mean()
