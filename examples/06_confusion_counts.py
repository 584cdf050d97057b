"""Accuracy, precision and recall from confusion counts (exercise 8C).

TN=60, FP=10, FN=20, TP=30: accuracy 0.75, precision 0.75, recall 0.6.
Convention: a metric whose denominator is zero is reported as 0.
"""

import torch


def report(tn: int, fp: int, fn: int, tp: int) -> tuple[float, float, float]:
    total = tn + fp + fn + tp
    accuracy = (tp + tn) / total if total else 0.0
    precision = tp / (tp + fp) if tp + fp else 0.0  # no predicted positives -> 0
    recall = tp / (tp + fn) if tp + fn else 0.0  # no actual positives -> 0
    return accuracy, precision, recall


acc, prec, rec = report(tn=60, fp=10, fn=20, tp=30)
print("TN=60 FP=10 FN=20 TP=30")
print(f"accuracy = {acc:.4f}")
print(f"precision = {prec:.4f}")
print(f"recall = {rec:.4f}")

# The same counts from logits at threshold 0.5 (predicted 1 means logit >= 0).
targets = torch.tensor([0] * 70 + [1] * 50)
logits = torch.cat(
    [
        torch.full((60,), -1.0),  # actual 0, predicted 0: TN
        torch.full((10,), 1.0),  # actual 0, predicted 1: FP
        torch.full((20,), -1.0),  # actual 1, predicted 0: FN
        torch.full((30,), 1.0),  # actual 1, predicted 1: TP
    ]
)
pred = logits >= 0
actual = targets == 1
counts = {
    "TN": int((~pred & ~actual).sum()),
    "FP": int((pred & ~actual).sum()),
    "FN": int((~pred & actual).sum()),
    "TP": int((pred & actual).sum()),
}
print("from logits:", " ".join(f"{k}={v}" for k, v in counts.items()))

# A majority-class model: accuracy looks fine, precision and recall are 0.
acc, prec, rec = report(tn=70, fp=0, fn=50, tp=0)
print(f"always predict 0: accuracy = {acc:.4f}, precision = {prec:.4f}, recall = {rec:.4f}")
