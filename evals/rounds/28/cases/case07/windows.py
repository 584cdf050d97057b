"""Turn the daily record into supervised (window -> level change) pairs."""
import numpy as np


def make_inputs(level, rain, lookback, horizon):
    """One row per forecast origin t (the window ends on day t-1).

    Features: level history relative to the last observed level, the rain
    history, and the rain forecast for the days being predicted.
    """
    rows = []
    for t in range(lookback, len(level) - horizon):
        past = level[t - lookback:t]
        rows.append(np.concatenate([
            past - past[-1],
            [past[-1] - 4.0],
            rain[t - lookback:t] / 10.0,
            rain[t:t + horizon] / 10.0,
        ]))
    return np.asarray(rows, dtype=np.float32)


def make_targets(level, lookback, horizon):
    """Level change over the horizon, one per forecast origin."""
    delta = level[horizon:] - level[:-horizon]          # delta[j] = level[j+h] - level[j]
    return delta[lookback:len(level) - horizon].astype(np.float32)
