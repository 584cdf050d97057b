"""input.txt for spro/char-rnn.pytorch (train.py takes the text file as its argument)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _synth import prose  # noqa: E402

with open("input.txt", "w") as f:
    f.write(prose(100_000, seed=0))
