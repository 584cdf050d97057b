"""Synthetic hall-call log for a 24-floor office tower with 4 cars."""
import json
import math
import os
import random

N_FLOORS = 24


def generate(path, n_calls=9000, seed=3):
    rng = random.Random(seed)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        t = 0.0
        for i in range(n_calls):
            t += rng.expovariate(1 / 9.0)
            hour = (7 + t / 3600.0) % 24
            peak = 1 if (8 <= hour < 9.5 or 12 <= hour < 13 or 17 <= hour < 18.5) else 0
            floor = rng.randint(0, N_FLOORS - 1)
            direction = rng.choice([-1, 1]) if 0 < floor < N_FLOORS - 1 else (1 if floor == 0 else -1)
            cars = [rng.randint(0, N_FLOORS - 1) for _ in range(4)]
            moving = [rng.choice([-1, 0, 1]) for _ in range(4)]
            pending = max(0, int(rng.gauss(3 + 6 * peak, 2)))
            best = min(abs(c - floor) + (4 if m != 0 and (c - floor) * m > 0 else 0) for c, m in zip(cars, moving))
            wait = 2.0 + 1.6 * best + 2.2 * pending * (1.0 + 0.5 * peak) + rng.gauss(0, 4.0)
            wait += 8.0 * (floor == 0 and peak)
            rec = {
                "call_id": i,
                "hour": round(hour, 3),
                "floor": None if rng.random() < 0.15 else floor,
                "direction": direction,
                "pending_calls": pending,
                "nearest_car_distance": best,
                "cars_idle": sum(1 for m in moving if m == 0),
                "wait_s": round(max(wait, 0.5), 2),
            }
            f.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    generate("data/calls.jsonl")
