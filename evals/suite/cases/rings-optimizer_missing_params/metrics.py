"""Binary classification report at the fixed probability threshold 0.5.

sigmoid(logit) >= 0.5 exactly when logit >= 0, so the prediction is taken from the
logit directly. Convention: precision or recall is reported as 0.0 when its
denominator is zero (no predicted positives, or no actual positives).
"""

from dataclasses import dataclass

import torch


@dataclass
class BinaryReport:
    tn: int
    fp: int
    fn: int
    tp: int

    @property
    def total(self) -> int:
        return self.tn + self.fp + self.fn + self.tp

    @property
    def accuracy(self) -> float:
        return (self.tp + self.tn) / self.total if self.total else 0.0

    @property
    def precision(self) -> float:
        predicted_pos = self.tp + self.fp
        return self.tp / predicted_pos if predicted_pos else 0.0

    @property
    def recall(self) -> float:
        actual_pos = self.tp + self.fn
        return self.tp / actual_pos if actual_pos else 0.0

    def __str__(self) -> str:
        return (
            f"TN={self.tn} FP={self.fp} FN={self.fn} TP={self.tp}\n"
            f"accuracy={self.accuracy:.4f} precision={self.precision:.4f} recall={self.recall:.4f}"
        )


def binary_report(logits: torch.Tensor, targets: torch.Tensor) -> BinaryReport:
    predicted = logits >= 0
    actual = targets >= 0.5
    return BinaryReport(
        tn=int((~predicted & ~actual).sum()),
        fp=int((predicted & ~actual).sum()),
        fn=int((~predicted & actual).sum()),
        tp=int((predicted & actual).sum()),
    )
