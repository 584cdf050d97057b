import torch
import torch.nn.functional as F


def collect_logits(model, X, batch=1024):
    model.eval()
    outs = []
    with torch.no_grad():
        for i in range(0, len(X), batch):
            outs.append(model(X[i:i + batch]))
    return torch.cat(outs).detach()


def fit_temperature(logits, labels, max_iter=100):
    """Temperature scaling (Guo et al. 2017): one scalar T fitted on held-out NLL.

    The classifier is frozen at this point; only log T is optimised.
    """
    log_t = torch.zeros(1, requires_grad=True)
    opt = torch.optim.LBFGS([log_t], lr=0.1, max_iter=max_iter, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = F.cross_entropy(logits / log_t.exp(), labels)
        loss.backward()
        return loss

    opt.step(closure)
    return log_t.exp().item()


def expected_calibration_error(probs, labels, n_bins=15):
    conf, pred = probs.max(1)
    acc = (pred == labels).float()
    edges = torch.linspace(0, 1, n_bins + 1)
    ece = torch.zeros(())
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            ece += m.float().mean() * (conf[m].mean() - acc[m].mean()).abs()
    return ece.item()


def energy_score(logits, T=1.0):
    """Free energy -T logsumexp(f/T); lower means more in-distribution."""
    return -T * torch.logsumexp(logits / T, dim=1)
