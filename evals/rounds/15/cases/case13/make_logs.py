"""Simulate exhibit visit logs -> data/visits.json"""
import json
import os
import sys

import numpy as np


def simulate(n_exhibits, n_visits, seed=7, closing=1080):
    rng = np.random.default_rng(seed)
    appeal = rng.lognormal(1.6, 0.5, size=n_exhibits)     # typical minutes per exhibit
    interactive = rng.random(n_exhibits) < 0.3
    visits = []
    for _ in range(n_visits):
        ex = int(rng.integers(n_exhibits))
        group = int(rng.integers(1, 6))
        guide = int(rng.random() < 0.35)
        crowd = float(rng.uniform(0, 1))
        entry = int(rng.integers(540, closing - 30))          # 9:00 .. 17:30
        minutes_left = closing - entry
        mu = np.log(appeal[ex]) + 0.08 * group + 0.35 * guide - 0.5 * crowd \
            + 0.4 * interactive[ex] * (group > 2)
        dwell = float(np.exp(mu + rng.normal(0, 0.35)))
        dwell = min(dwell, minutes_left - 1)
        # BLE beacon at the exhibit pings the guide app every 30 s (some pings are lost)
        pings = int(rng.binomial(int(dwell * 2), 0.9)) if guide else 0
        visits.append({"exhibit": ex, "group_size": group, "audio_guide": guide, "crowd": crowd,
                       "entry_min": entry, "exit_min": entry + dwell, "beacon_pings": pings,
                       "dwell_min": dwell})
    return visits


if __name__ == "__main__":
    os.makedirs("data", exist_ok=True)
    n_ex = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 6000
    with open("data/visits.json", "w") as f:
        json.dump(simulate(n_ex, n), f)
