import numpy as np


def window_starts(n, window, horizon, stride):
    return np.arange(0, n - window - horizon + 1, stride)


def make_inputs(series, window, horizon, stride):
    starts = window_starts(len(series), window, horizon, stride)
    return np.stack([series[s:s + window] for s in starts])


def make_targets(series, window, horizon, stride):
    """Level `horizon` hours after the last reading of each input window."""
    first = window + horizon - 1
    n = len(window_starts(len(series), window, horizon, stride))
    return series[first:first + n]
