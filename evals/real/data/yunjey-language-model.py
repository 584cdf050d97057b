"""data/train.txt for yunjey/pytorch-tutorial's language_model (Penn-Treebank style).

The tutorial reads data/train.txt (absent from the repo snapshot): lower-case sentences
from a small grammar, one per line, words separated by spaces.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _synth import sentences  # noqa: E402

os.makedirs("data", exist_ok=True)
with open(os.path.join("data", "train.txt"), "w") as f:
    for words in sentences(600, seed=0):
        f.write(" " + " ".join(words) + " \n")
