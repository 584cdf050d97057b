"""A small corpus for pytorch/examples word_language_model, in data/synth/.

Sentences from a small English-like grammar (agreement, word order, topics), one per
line as in wikitext's files; the model's --data flag points at the folder.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _synth import sentences  # noqa: E402

os.makedirs("data/synth", exist_ok=True)
for name, n, seed in (("train", 6000, 0), ("valid", 600, 1), ("test", 600, 2)):
    with open(os.path.join("data/synth", f"{name}.txt"), "w") as f:
        for words in sentences(n, seed):
            f.write(" " + " ".join(words) + " . \n")
