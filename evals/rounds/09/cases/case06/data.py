"""Synthetic rows of an elementary CA and the aligned training sequences."""
import numpy as np
import torch
from torch.utils.data import TensorDataset

IGNORE = -100


def rule_table(rule: int) -> np.ndarray:
    # bit k of the Wolfram code is the next state of neighbourhood k = 4*l + 2*c + r
    return np.array([(rule >> k) & 1 for k in range(8)], dtype=np.int64)


def evolve(rows: np.ndarray, rule: int) -> np.ndarray:
    table = rule_table(rule)
    left = np.roll(rows, 1, axis=1)
    right = np.roll(rows, -1, axis=1)
    return table[4 * left + 2 * rows + right]


def wrap_pad(rows: np.ndarray, radius: int) -> np.ndarray:
    """Periodic padding so the scan sees the wrap-around neighbours."""
    return np.concatenate([rows[:, -radius:], rows, rows[:, :radius]], axis=1)


def align_targets(next_rows: np.ndarray, radius: int) -> np.ndarray:
    """Targets for the padded scan.

    Step t of the scan has read padded cells 0..t. A cell's whole
    neighbourhood has been read once the scan is `radius` cells past it, so
    the next state of cell i is emitted that many steps after the cell.
    Steps before the first complete neighbourhood are ignored in the loss.
    """
    n, width = next_rows.shape
    lag = radius
    y = np.full((n, width + 2 * radius), IGNORE, dtype=np.int64)
    y[:, lag:lag + width] = next_rows
    return y


def make_datasets(n_train, n_val, width, rule, radius, seed):
    rng = np.random.default_rng(seed)
    # mix dense and sparse rows so that all neighbourhoods are frequent
    density = rng.uniform(0.2, 0.8, size=(n_train + n_val, 1))
    rows = (rng.random((n_train + n_val, width)) < density).astype(np.int64)
    nxt = evolve(rows, rule)
    x = wrap_pad(rows, radius)
    y = align_targets(nxt, radius)
    x, y = torch.from_numpy(x), torch.from_numpy(y)
    return (TensorDataset(x[:n_train], y[:n_train]),
            TensorDataset(x[n_train:], y[n_train:]))
