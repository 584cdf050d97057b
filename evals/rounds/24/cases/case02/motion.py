"""Procedural joint-angle clips for a handful of dance moves.

Each move is a set of per-joint oscillations (frequency, amplitude, phase). A clip
is one performance: tempo, amplitude and phase jitter per dancer, plus sensor noise.
"""
import numpy as np

MOVES = ["step_touch", "grapevine", "box_step", "cha_cha", "twist", "kick_ball", "shimmy"]
N_JOINTS = 8
FRAMES = 48


def _move_table(rng):
    table = []
    for _ in MOVES:
        freq = rng.uniform(0.5, 3.0, size=N_JOINTS)
        amp = rng.uniform(0.1, 1.0, size=N_JOINTS)
        phase = rng.uniform(0, 2 * np.pi, size=N_JOINTS)
        table.append((freq, amp, phase))
    return table


def generate(n_per_move, seed):
    rng = np.random.default_rng(seed)
    table = _move_table(np.random.default_rng(1234))  # the moves themselves are fixed
    t = np.linspace(0, 2, FRAMES)
    clips, labels = [], []
    for k, (freq, amp, phase) in enumerate(table):
        for _ in range(n_per_move):
            tempo = rng.uniform(0.8, 1.25)
            a = amp * rng.uniform(0.7, 1.3, size=N_JOINTS)
            ph = phase + rng.normal(0, 0.6, size=N_JOINTS) + rng.uniform(0, 2 * np.pi)
            x = a[None, :] * np.sin(2 * np.pi * freq[None, :] * tempo * t[:, None] + ph[None, :])
            x += rng.normal(0, 0.35, size=x.shape)
            clips.append(x.astype(np.float32))
            labels.append(k)
    return np.stack(clips), np.array(labels, dtype=np.int64)
