import numpy as np

N_USERS = 12
N_STROKES = 24
FEATURES = ["latency_ms", "ramp_ms", "peak_pressure", "tilt_deg", "hover_ms", "speed_mm_s"]


def _profiles(rng):
    return {
        "latency": rng.uniform(8, 16, N_USERS),
        "ramp": rng.uniform(15, 60, N_USERS),
        "peak": rng.uniform(0.3, 0.9, N_USERS),
        "tilt": rng.uniform(25, 60, N_USERS),
        "hover": rng.uniform(80, 400, N_USERS),
        "speed": rng.uniform(40, 160, N_USERS),
    }


def simulate(n_sessions, seed, profile_seed=0):
    prof = _profiles(np.random.default_rng(profile_seed))
    rng = np.random.default_rng(seed)
    users = rng.integers(0, N_USERS, n_sessions)
    x = np.zeros((n_sessions, N_STROKES, len(FEATURES)), np.float32)
    for i, u in enumerate(users):
        day = rng.normal(0, 0.15)                # tiredness / posture of the day
        x[i, :, 0] = rng.normal(prof["latency"][u], 3.0, N_STROKES)
        x[i, :, 1] = rng.gamma(4.0, prof["ramp"][u] / 4.0, N_STROKES)
        x[i, :, 2] = np.clip(rng.normal(prof["peak"][u] * (1 + day), 0.15, N_STROKES), 0.05, 1)
        x[i, :, 3] = rng.normal(prof["tilt"][u], 8.0, N_STROKES)
        x[i, :, 4] = rng.lognormal(np.log(prof["hover"][u]), 0.5, N_STROKES)
        x[i, :, 5] = rng.normal(prof["speed"][u] * (1 - day), 25.0, N_STROKES)
    return x, users.astype(np.int64)
