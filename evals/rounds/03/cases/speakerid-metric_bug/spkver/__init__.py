"""Toy speaker verification: conv embedding + additive angular margin softmax."""
