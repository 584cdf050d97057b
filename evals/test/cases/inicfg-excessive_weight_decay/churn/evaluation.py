import torch


def roc_auc(scores, labels):
    """Rank-based AUC (Mann-Whitney U), ties broken by order."""
    order = torch.argsort(scores)
    ranks = torch.empty_like(order, dtype=torch.float64)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=torch.float64)
    pos = labels > 0.5
    n_pos, n_neg = pos.sum().item(), (~pos).sum().item()
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    return ((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()


@torch.no_grad()
def evaluate(model, loader, loss_fn):
    model.eval()
    scores, labels, loss = [], [], 0.0
    for cats, nums, churned in loader:
        logits = model(cats, nums)
        loss += loss_fn(logits, churned).item() * len(churned)
        scores.append(logits)
        labels.append(churned)
    scores, labels = torch.cat(scores), torch.cat(labels)
    acc = ((scores > 0).float() == labels).float().mean().item()
    return {"loss": loss / len(labels), "acc": acc, "auc": roc_auc(scores, labels)}
