"""Simulate the expert controller and record episodes."""
import numpy as np

DT = 0.05
PUSH = 2.0


def expert_action(obs):
    """PD law with a dead band; returns 0 (left), 1 (coast) or 2 (right)."""
    pos, vel, goal, friction = obs
    u = -3.0 * (pos - goal) - 1.2 * vel + 0.8 * friction * vel
    if u > 0.35:
        return 2
    if u < -0.35:
        return 0
    return 1


def simulate_episode(rng, steps):
    pos = rng.uniform(-2, 2)
    vel = rng.uniform(-1, 1)
    goal = rng.uniform(-1.5, 1.5)
    friction = rng.uniform(0.0, 1.0)
    obs, act = [], []
    for _ in range(steps):
        o = np.array([pos, vel, goal, friction], dtype=np.float32)
        a = expert_action(o)
        # a little exploration noise in the executed push keeps the state
        # distribution wide; the recorded label is always the expert's choice
        executed = a if rng.random() > 0.3 else rng.integers(0, 3)
        force = (executed - 1) * PUSH
        vel = vel + DT * (force - friction * vel) + rng.normal(0, 0.05)
        pos = pos + DT * vel
        obs.append(o)
        act.append(a)
    return np.stack(obs), np.array(act, dtype=np.int64)


def collect(n_episodes, steps, seed, prefix="ep", start=0):
    rng = np.random.default_rng(seed)
    episodes = {}
    for i in range(start, start + n_episodes):
        o, a = simulate_episode(rng, steps)
        episodes[f"{prefix}{i}"] = {"obs": o, "act": a}
    return episodes
