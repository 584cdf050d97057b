import numpy as np

KEYS = {"C": 65.4, "D": 73.4, "E": 82.4, "F": 87.3, "G": 98.0}   # Hz, drone fundamentals
FS, N = 2000, 1000


def trace(f0, rng):
    t = np.arange(N) / FS
    f = f0 * rng.uniform(0.985, 1.015)
    breath = 1.0 + 0.3 * np.sin(2 * np.pi * rng.uniform(0.5, 1.5) * t + rng.uniform(0, 6))
    if rng.random() < 0.5:                       # circular-breathing dip
        c = rng.uniform(0.1, 0.4)
        breath *= 1 - 0.6 * np.exp(-((t - c) / 0.03) ** 2)
    buzz = sum(a * np.sin(2 * np.pi * k * f * t + rng.uniform(0, 6)) for k, a in [(1, 1.0), (2, 0.5), (3, 0.3)])
    x = breath * (0.4 * buzz) + rng.normal(0, 0.15, N)
    if rng.random() < 0.2:                       # a toot on the overblown note
        s = rng.integers(0, N - 150)
        x[s:s + 150] += 0.5 * np.sin(2 * np.pi * 2.6 * f * t[s:s + 150])
    return x.astype(np.float32)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    names = list(KEYS)
    labels = rng.integers(0, len(names), 1500)
    x = np.stack([trace(KEYS[names[k]], rng) for k in labels]).astype(np.float16)
    np.savez_compressed("traces.npz", x=x, y=labels, keys=np.array(names))
    print("wrote traces.npz", x.shape)
