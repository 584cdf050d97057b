"""Write a synthetic set of nights to nights.npz.

Every night has its own belt gain and baseline offset. Windows are 30 s at 4 Hz.
An event window has the breathing amplitude reduced for part of the window.
"""
import argparse
import numpy as np

FS = 4
WIN = 30 * FS


def one_night(rng, n_windows):
    gain = np.exp(rng.normal(0, 0.7))
    offset = rng.normal(0, 2.0)
    rate = rng.uniform(0.2, 0.33)  # breaths per second
    t = np.arange(WIN) / FS
    xs, ys = [], []
    for _ in range(n_windows):
        event = rng.random() < 0.3
        env = np.ones(WIN)
        if event:
            start = rng.integers(0, WIN // 2)
            length = rng.integers(WIN // 3, WIN // 2)
            env[start:start + length] = rng.uniform(0.2, 0.55)
        amp = env * rng.uniform(0.85, 1.15)
        sig = amp * np.sin(2 * np.pi * rate * t + rng.uniform(0, 2 * np.pi))
        sig = gain * (sig + rng.normal(0, 0.15, WIN)) + offset
        xs.append(sig.astype(np.float32))
        ys.append(int(event))
    return np.stack(xs), np.array(ys)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nights", type=int, default=40)
    ap.add_argument("--windows", type=int, default=120)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--out", default="nights.npz")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    X, y, night = [], [], []
    for n in range(args.nights):
        xs, ys = one_night(rng, args.windows)
        X.append(xs); y.append(ys); night.append(np.full(len(ys), n))
    np.savez(args.out, X=np.concatenate(X), y=np.concatenate(y), night=np.concatenate(night))
    print(f"wrote {args.out}: {sum(len(a) for a in y)} windows from {args.nights} nights")


if __name__ == "__main__":
    main()
