"""Toy kinematics for fencing actions. Angles in degrees, clip = [T, joints]."""
import numpy as np

JOINTS = ["front_knee", "back_knee", "front_hip", "sword_elbow", "sword_shoulder", "rear_arm"]
ACTIONS = ["lunge", "fleche", "advance_lunge", "retreat_parry"]
T = 96


def _ramp(t, start, dur):
    return np.clip((t - start) / dur, 0.0, 1.0)


def one_clip(action, rng):
    t = np.arange(T, dtype=np.float64)
    onset = rng.uniform(20, 60)
    speed = rng.uniform(0.7, 1.4)
    lag = rng.uniform(2, 7)
    if action == 0:      # lunge: blade arm leads, front leg follows
        arm = _ramp(t, onset, 10 * speed)
        leg = _ramp(t, onset + lag, 12 * speed)
    elif action == 1:    # fleche: leg drive first, arm after
        leg = _ramp(t, onset, 12 * speed)
        arm = _ramp(t, onset + lag, 10 * speed)
    elif action == 2:    # advance then lunge: small step before the lunge
        arm = _ramp(t, onset, 10 * speed)
        step = 0.3 * (_ramp(t, onset - 18, 6) - _ramp(t, onset - 10, 6))
        leg = step + _ramp(t, onset + lag, 12 * speed)
    else:                # retreat-parry: legs retreat a little, arm flicks and returns
        leg = -0.3 * _ramp(t, onset, 10 * speed)
        arm = 0.7 * (_ramp(t, onset + lag, 5) - _ramp(t, onset + lag + 12, 8))
    clip = np.stack([
        110 + 50 * leg,        # front knee opens
        140 - 30 * leg,        # back knee
        80 + 25 * leg,         # hip flexion
        90 + 80 * arm,         # sword elbow extends to ~170
        30 + 55 * arm,         # shoulder raises
        100 - 40 * leg,        # rear arm drops
    ], axis=1)
    clip += rng.normal(0, 12.0, clip.shape) + rng.normal(0, 10.0, (1, clip.shape[1]))
    return clip.astype(np.float32)


def make_set(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(ACTIONS), n)
    x = np.stack([one_clip(a, rng) for a in y])
    return x, y
