import numpy as np

GRADES = ["6/7", "8/9", "10/11", "11/12", "12+"]
EDGES = np.array([7.2, 8.8, 10.4, 11.6])       # girth (cm) cut points between grades


def simulate(n_bulbs, scans, rng):
    girth = rng.uniform(6.0, 13.0, n_bulbs)
    colour = rng.normal(0, 1, n_bulbs)
    round_ = rng.uniform(0.7, 1.0, n_bulbs)
    grade = np.searchsorted(EDGES, girth)
    rows, bulb_id, labels = [], [], []
    for b in range(n_bulbs):
        for _ in range(scans):
            rot = rng.uniform(0.85, 1.15)       # the bulb's pose on the rollers
            area = (girth[b] / np.pi) ** 2 * np.pi / 4 * rot * round_[b] + rng.normal(0, 0.15)
            perim = girth[b] * rot ** 0.5 + rng.normal(0, 0.25)
            weight = 0.9 * girth[b] ** 2.2 / 30 + rng.normal(0, 0.4)
            rows.append([area, perim, weight, colour[b] + rng.normal(0, 0.2), round_[b] + rng.normal(0, 0.03),
                         rng.normal(0, 1), rng.normal(0, 1)])
            bulb_id.append(b)
            labels.append(grade[b])
    return np.array(rows, np.float32), np.array(bulb_id), np.array(labels)


def split_by_bulb(bulb_id, val_fraction, rng):
    ids = np.unique(bulb_id)
    rng.shuffle(ids)
    val_ids = set(ids[: int(len(ids) * val_fraction)].tolist())
    is_val = np.array([b in val_ids for b in bulb_id])
    return np.flatnonzero(~is_val), np.flatnonzero(is_val)
