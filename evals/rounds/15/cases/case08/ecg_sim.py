import numpy as np

FS = 100  # Hz


def _beat(t, width):
    # crude QRS complex + T wave
    return np.exp(-(t / width) ** 2) * 1.0 - 0.25 * np.exp(-((t - 0.05) / (2 * width)) ** 2) \
        + 0.3 * np.exp(-((t - 0.25) / 0.05) ** 2)


def recording(rng, seconds, irregular):
    n = int(seconds * FS)
    t = np.arange(n) / FS
    hr = rng.uniform(55, 95)
    rr = 60.0 / hr
    beats, tb = [], rng.uniform(0, rr)
    while tb < seconds:
        beats.append(tb)
        if irregular and rng.random() < 0.35:
            tb += rr * rng.uniform(0.45, 0.7)      # premature beat
            beats.append(tb)
            tb += rr * rng.uniform(1.3, 1.6)       # compensatory pause
        else:
            tb += rr * rng.normal(1.0, 0.03)
    lead_w = rng.normal([1.0, 0.6, -0.4], 0.15)
    sig = np.zeros((3, n))
    for b in beats:
        wide = irregular and rng.random() < 0.5
        shape = _beat(t - b, 0.035 if wide else 0.015)
        sig += lead_w[:, None] * shape[None]
    sig += 0.08 * np.sin(2 * np.pi * rng.uniform(0.1, 0.4) * t)[None]  # wander
    sig += rng.normal(0, 0.04, size=sig.shape)
    gain = rng.uniform(0.3, 4.0, size=(3, 1))
    offset = rng.normal(0, 2.0, size=(3, 1))
    return (sig * gain + offset).astype(np.float32)


def make_recordings(n, seconds, seed):
    rng = np.random.default_rng(seed)
    recs, labels = [], []
    for i in range(n):
        irregular = i % 2 == 1
        recs.append(recording(rng, seconds, irregular))
        labels.append(int(irregular))
    return recs, labels
