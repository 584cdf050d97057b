import argparse

import numpy as np


def fly(rng, steps=400):
    alt, vz, temp = 300.0, 0.0, 0.0
    alts, burns = [], []
    burner = 0
    for t in range(steps):
        if burner == 0 and rng.random() < 0.08:
            burner = rng.integers(2, 6)
        on = 1.0 if burner > 0 else 0.0
        burner = max(burner - 1, 0)
        temp = 0.85 * temp + 2.0 * on
        thermal = 0.4 * np.sin(t / rng.uniform(20, 60))
        vz = 0.8 * vz + 0.25 * (temp - 4.0) + thermal + rng.normal(0, 0.6)
        alt = max(alt + vz, 0.0)
        alts.append(alt)
        burns.append(on)
    return np.array(alts, np.float32), np.array(burns, np.float32)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="flights.npz")
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    flights = [fly(rng) for _ in range(a.n)]
    np.savez(a.out, alt=np.stack([f[0] for f in flights]), burn=np.stack([f[1] for f in flights]))
    print(f"wrote {a.n} flights to {a.out}")
