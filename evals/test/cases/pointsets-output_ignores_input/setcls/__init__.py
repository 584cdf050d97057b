"""Permutation-invariant classification of 2-D point clouds with a small transformer."""
