"""Feature engineering for the realized-volatility model.

Returns are simulated with a GARCH(1,1) per ticker plus a shared market
factor, so there is real (but noisy) persistence in volatility to learn.
"""
import numpy as np


def simulate_returns(n_tickers, n_days, seed):
    rng = np.random.default_rng(seed)
    omega = rng.uniform(0.5e-5, 3e-5, size=n_tickers)
    alpha = rng.uniform(0.05, 0.15, size=n_tickers)
    beta = 0.97 - alpha - rng.uniform(0.0, 0.05, size=n_tickers)
    beta_mkt = rng.uniform(0.3, 1.2, size=n_tickers)

    r = np.zeros((n_days, n_tickers))
    s2 = omega / (1 - alpha - beta)
    m_s2 = 1e-4
    for t in range(n_days):
        m_s2 = 2e-6 + 0.08 * (r[t - 1].mean() ** 2 if t else 1e-4) + 0.9 * m_s2
        mkt = np.sqrt(m_s2) * rng.standard_normal()
        eps = np.sqrt(s2) * rng.standard_normal(n_tickers)
        r[t] = beta_mkt * mkt + eps
        s2 = omega + alpha * eps ** 2 + beta * s2
    return r.astype(np.float64)


def rolling_rms(r, window):
    """Root-mean-square of daily returns over `window` days, column by column."""
    kernel = np.ones(window) / window
    sq = r ** 2
    cols = [np.convolve(sq[:, j], kernel, mode="same") for j in range(sq.shape[1])]
    return np.sqrt(np.stack(cols, axis=1) + 1e-12)


def forward_rms(r, horizon):
    """RMS of the next `horizon` returns (t+1 .. t+horizon): the forecasting target."""
    n = r.shape[0]
    out = np.full_like(r, np.nan)
    csum = np.cumsum(np.vstack([np.zeros((1, r.shape[1])), r ** 2]), axis=0)
    for t in range(n - horizon):
        out[t] = (csum[t + 1 + horizon] - csum[t + 1]) / horizon
    return np.sqrt(out + 1e-12)


def build_table(r, windows, horizon):
    """Stack per-(day, ticker) features and log-vol targets.

    Returns X [n_rows, n_feat], y [n_rows], day index [n_rows].
    """
    n_days, n_tk = r.shape
    feats = [np.log(rolling_rms(r, w)) for w in windows]
    feats.append(np.log(np.abs(r) + 1e-5))
    mkt = r.mean(axis=1, keepdims=True)
    feats.append(np.repeat(np.log(rolling_rms(mkt, windows[-1])), n_tk, axis=1))
    target = np.log(forward_rms(r, horizon))

    warm = max(windows)
    days = np.arange(warm, n_days - horizon)
    X = np.stack([f[days] for f in feats], axis=-1).reshape(-1, len(feats))
    y = target[days].reshape(-1)
    day_idx = np.repeat(days, n_tk)
    return X.astype(np.float32), y.astype(np.float32), day_idx
