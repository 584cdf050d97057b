"""Simulate EMG sessions, scale each by its own median/IQR, and cut labelled windows."""
import numpy as np

FS, WIN, HOP = 200, 100, 50


def session(rng, seconds=60):
    n = FS * seconds
    gain = rng.uniform(0.3, 3.0)
    offset = rng.uniform(-0.5, 0.5)
    sig = rng.normal(0, 0.2, n)
    blink = np.zeros(n, bool)
    t = rng.integers(0, FS)
    while t < n - FS:
        dur = rng.integers(20, 40)
        burst = np.sin(np.linspace(0, np.pi, dur)) * rng.normal(0, 1.2, dur) * rng.uniform(1.5, 3)
        sig[t:t + dur] += burst
        blink[t:t + dur] = True
        t += rng.integers(FS, 4 * FS)
    return gain * sig + offset, blink


def robust_scale(x):
    q1, med, q3 = np.percentile(x, [25, 50, 75])
    return (x - med) / (q3 - q1 + 1e-8)


def windows(sig, blink):
    X, y = [], []
    for s in range(0, len(sig) - WIN, HOP):
        X.append(sig[s:s + WIN])
        # a window is positive when it holds most of a blink burst
        y.append(float(blink[s:s + WIN].sum() >= 15))
    return X, y


def build(n_sessions, rng):
    X, y, sid = [], [], []
    for k in range(n_sessions):
        sig, blink = session(rng)
        xs, ys = windows(robust_scale(sig), blink)
        X += xs
        y += ys
        sid += [k] * len(xs)
    return np.array(X, np.float32), np.array(y, np.float32), np.array(sid)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    Xtr, ytr, str_ = build(16, rng)
    Xte, yte, ste = build(6, rng)
    np.savez_compressed("emg_windows.npz", Xtr=Xtr, ytr=ytr, str=str_, Xte=Xte, yte=yte, ste=ste)
    print(f"train windows {len(ytr)} (pos {ytr.mean():.2f}), test windows {len(yte)}")
