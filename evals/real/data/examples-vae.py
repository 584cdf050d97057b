"""Synthetic MNIST (IDX files) for examples-vae.

The VAE reads ../data (the repo's shared data folder beside the example)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _synth import write_mnist_idx  # noqa: E402

write_mnist_idx("../data", n_train=6000, n_test=1000, seed=0, class_sorted=False)
