"""Simulated tennis matches, point by point.

Per point features (known before the point is played):
  0 player A serves            3 serve speed (standardized)
  1 first serve in             4 server won the previous point
  2 break point                5 A won the previous point
Target: 1 if the server wins the point.
The latent skill gap between the players is never given; a model has to infer
it from the match history.
"""
import numpy as np

N_FEAT = 6


def simulate_match(rng, n_points):
    gap = rng.normal(0, 1.0)
    x = np.zeros((n_points, N_FEAT), np.float32)
    y = np.zeros(n_points, np.int64)
    a_serves, prev_server_won, prev_a_won, streak = 1, 0, 0, 0.0
    for t in range(n_points):
        if t % 6 == 0 and t > 0:
            a_serves = 1 - a_serves
        first_in = rng.random() < 0.62
        speed = rng.normal(0.4 if first_in else -0.6, 0.5)
        bp = rng.random() < 0.08
        skill = gap if a_serves else -gap
        logit = 0.2 + 0.9 * skill + 0.9 * first_in + 0.3 * speed - 0.4 * bp + 0.3 * streak
        won = rng.random() < 1 / (1 + np.exp(-logit))
        x[t] = [a_serves, first_in, bp, speed, prev_server_won, prev_a_won]
        y[t] = won
        a_won = won if a_serves else not won
        streak = 0.7 * streak + (1 if a_won == a_serves else -1) * 0.3
        prev_server_won, prev_a_won = int(won), int(a_won)
    return x, y


def make_matches(n_matches, n_points, seed):
    rng = np.random.default_rng(seed)
    xs, ys = zip(*[simulate_match(rng, n_points) for _ in range(n_matches)])
    return np.stack(xs), np.stack(ys)   # [M, T, F], [M, T]
