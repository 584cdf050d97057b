"""Synthetic MNIST (IDX files) for examples-dcgan.

DCGAN, run with --dataset mnist --dataroot data
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _synth import write_mnist_idx  # noqa: E402

write_mnist_idx("data", n_train=3000, n_test=500, seed=0, class_sorted=False)
