"""Synthetic MNIST (IDX files) for pytorch-gan.

implementations/gan reads ../../data/mnist (the repo's data folder)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _synth import write_mnist_idx  # noqa: E402

write_mnist_idx("../../data/mnist", n_train=4000, n_test=500, seed=0, class_sorted=False)
