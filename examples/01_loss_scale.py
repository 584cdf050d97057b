"""Chance-level loss values: the scale of an uncertain classifier's first loss.

At binary logit 0, sigmoid is 0.5 and BCE is ln 2 ≈ 0.693147 for either class.
With C equal class logits, cross-entropy is ln C (0.693147 for two classes).
A random initialization need not start exactly there; it is a scale, not a rule.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

zero_logit = torch.zeros(1)
for target in (0.0, 1.0):
    bce = F.binary_cross_entropy_with_logits(zero_logit, torch.tensor([target]))
    print(f"BCE at logit 0, target {target:.0f}: {bce.item():.6f}")

for classes in (2, 3, 4, 10):
    ce = F.cross_entropy(torch.zeros(1, classes), torch.tensor([0]))
    print(
        f"CE with {classes:2d} equal logits: {ce.item():.6f}   ln({classes}) = {math.log(classes):.6f}"
    )

# A freshly initialized binary classifier lands near the chance value, not on it.
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
x = torch.randn(256, 2)
y = (x.norm(dim=1, keepdim=True) > 1).float()
first = nn.BCEWithLogitsLoss()(model(x), y)
print(f"first loss of an untrained MLP: {first.item():.4f} (chance scale {math.log(2):.4f})")
