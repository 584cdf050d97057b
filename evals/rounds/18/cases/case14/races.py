import numpy as np

N_RUNNERS, N_COURSES, N_GROUPS, N_SPLITS = 400, 12, 8, 8


def season(n, seed=21):
    rng = np.random.default_rng(seed)
    ability = rng.normal(0, 1, N_RUNNERS)          # fitness, sd ~ 2 min per 5 km
    fade = rng.uniform(0, 1, N_RUNNERS)             # how much a runner slows late
    hilly = rng.uniform(-1, 1, N_COURSES)
    runner = rng.integers(0, N_RUNNERS, n)
    course = rng.integers(0, N_COURSES, n)
    group = np.clip((ability[runner] + 4 + rng.normal(0, 1.5, n)).round(), 0, N_GROUPS - 1).astype(int)
    temp = rng.uniform(2, 28, n)
    wind = rng.gamma(2, 2, n)
    k = np.arange(N_SPLITS)
    splits = (1500 - 120 * ability[runner][:, None] + 25 * hilly[course][:, None]
              + 2.5 * np.clip(temp - 12, 0, None)[:, None] + 3 * wind[:, None]
              + fade[runner][:, None] * 9 * k[None, :] ** 1.3
              + rng.normal(0, 15, (n, N_SPLITS)))
    num = np.stack([(temp - 15) / 8, (wind - 4) / 3], 1).astype(np.float32)
    return runner, course, group, num, ((splits - 1500) / 100).astype(np.float32)
