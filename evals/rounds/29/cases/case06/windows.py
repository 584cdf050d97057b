import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def make_windows(level, rain, lookback):
    """Supervised pairs: (last `lookback` days of level and rain) -> next level.

    Each row of the sliding view spans lookback + 1 days; the final day of the
    row is the one we forecast.
    """
    lv = sliding_window_view(level, lookback + 1)
    rn = sliding_window_view(rain, lookback + 1)
    x_level = lv[:, 1:]
    x_rain = rn[:, :-1]
    y = lv[:, -1]
    x = np.concatenate([x_level, np.log1p(x_rain)], axis=1)
    return x.astype(np.float32), y.astype(np.float32)
