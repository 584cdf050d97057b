"""Synthetic MNIST for Lightning's examples/pytorch/basics/autoencoder.py.

The example reads ../../Datasets (the repo's Datasets folder) and splits the training set
with random_split(dataset, [55000, 5000]), so the training file must hold 60,000 images.
Lightning's MNIST helper first probes torchvision's MNIST in ./data; that probe gets a
small copy of its own.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _synth import write_mnist_idx  # noqa: E402

write_mnist_idx(os.path.join("..", "..", "Datasets"), n_train=60_000, n_test=2_000, seed=0)
write_mnist_idx("data", n_train=200, n_test=100, seed=5)
