import argparse
import json

import numpy as np

DETAIL = ["battery lasts", "fits true to size", "setup took", "compared it with", "after three weeks",
          "the stitching", "measured", "weighs about", "the manual explains", "returned the first one",
          "customer service replied", "works with my", "noise level is", "charging takes"]
VAGUE = ["love it", "great", "awesome", "bad", "meh", "five stars", "terrible", "best ever", "ok",
         "would buy", "nice", "do not buy", "wow", "cool"]
FILLER = ["i", "the", "it", "this", "product", "is", "was", "and", "very", "really", "so", "my", "a"]
NUMS = [str(n) for n in range(1, 60)]


def review(rng):
    n_detail = rng.poisson(1.5)
    n_vague = rng.poisson(2.0)
    parts = []
    for _ in range(n_detail):
        parts.append(rng.choice(DETAIL) + " " + rng.choice(NUMS))
    for _ in range(n_vague):
        parts.append(rng.choice(VAGUE))
    for _ in range(rng.integers(2, 12)):
        parts.append(rng.choice(FILLER))
    rng.shuffle(parts)
    text = " ".join(parts)
    z = 0.9 * n_detail - 0.45 * n_vague + 0.02 * len(text.split()) - 0.3 + rng.normal(0, 0.35)
    return {"text": text, "helpful_share": float(1 / (1 + np.exp(-z)))}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="reviews.jsonl")
    ap.add_argument("--n", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=3)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    with open(a.out, "w") as f:
        for _ in range(a.n):
            f.write(json.dumps(review(rng)) + "\n")
    print(f"wrote {a.n} reviews to {a.out}")
