"""Turn per-gauge daily series into supervised windows."""
import numpy as np


def _scaled(series):
    logq = np.log1p(series["flow"])
    return (
        (series["temp"] - 2.0) / 10.0,
        np.log1p(series["precip"]) / 2.0,
        (logq - 2.0) / 1.0,
    )


def build_inputs(gauges, window, horizon, days):
    """Windows of [temp, precip, log-flow] for every gauge, gauges in a fixed order."""
    rows = []
    for name in sorted(gauges):
        temp, precip, logq = _scaled(gauges[name])
        doy = gauges[name]["doy"]
        for end in days:
            if end - window < 0 or end + horizon >= len(logq):
                continue
            sl = slice(end - window, end)
            season = [np.sin(2 * np.pi * doy[end] / 365), np.cos(2 * np.pi * doy[end] / 365)]
            rows.append(np.concatenate([temp[sl], precip[sl], logq[sl], season]))
    return np.asarray(rows, dtype=np.float32)


def build_targets(gauges, window, horizon, days):
    """log flow `horizon` days after each window end (same ordering as build_inputs)."""
    ys = []
    for name, series in gauges.items():
        logq = _scaled(series)[2]
        for end in days:
            if end - window < 0 or end + horizon >= len(logq):
                continue
            ys.append(logq[end + horizon - 1])
    return np.asarray(ys, dtype=np.float32)


def make_split(gauges, window, horizon, first_day, last_day):
    days = range(first_day, last_day)
    X = build_inputs(gauges, window, horizon, days)
    y = build_targets(gauges, window, horizon, days)
    assert len(X) == len(y)
    return X, y
