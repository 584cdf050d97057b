"""input.txt for minGPT projects/chargpt: English-like prose from a small grammar.

chargpt samples from the context "O God, O God!" every 500 iterations, so every one of
those characters must be in the vocabulary: some lines open with that exclamation.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _synth import prose  # noqa: E402

lines = prose(120_000, seed=0).splitlines()
rng = np.random.default_rng(1)
for i in rng.choice(len(lines), size=len(lines) // 25, replace=False):
    lines[i] = "O God, O God! " + lines[i]
with open("input.txt", "w") as f:
    f.write("\n".join(lines) + "\n")
