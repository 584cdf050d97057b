import numpy as np

# derived columns; everything else is read straight from the log record
DERIVED = {
    "arrival_h": lambda v, close: v["entry_min"] / 60.0,
    "minutes_to_close": lambda v, close: close - v["entry_min"],
}


def featurize(visits, numeric_features, closing_minute):
    """Turn raw log records into (exhibit ids, numeric matrix, target)."""
    ex = np.array([v["exhibit"] for v in visits], dtype=np.int64)
    num = np.zeros((len(visits), len(numeric_features)), dtype=np.float32)
    for i, v in enumerate(visits):
        for j, name in enumerate(numeric_features):
            num[i, j] = DERIVED[name](v, closing_minute) if name in DERIVED else v[name]
    y = np.array([v["dwell_min"] for v in visits], dtype=np.float32)
    return ex, num, y
