import numpy as np


def make_utterances(n_speakers, utts, dim, seed, world_seed=77):
    """Speaker prototype + session/channel effect (low-rank, strong) + noise."""
    world = np.random.default_rng(world_seed)
    channel_basis = world.normal(size=(4, dim)) * 1.5          # shared nuisance directions
    rng = np.random.default_rng(seed)
    protos = rng.normal(size=(n_speakers, dim))
    x = np.repeat(protos, utts, axis=0)
    x += rng.normal(size=(n_speakers * utts, 4)) @ channel_basis
    x += 0.4 * rng.normal(size=x.shape)
    spk = np.repeat(np.arange(n_speakers), utts)
    return x.astype(np.float32), spk


def sample_pairs(spk, n_pairs, rng):
    """Balanced same/different pairs of utterance indices."""
    by_spk = {}
    for i, s in enumerate(spk):
        by_spk.setdefault(int(s), []).append(i)
    speakers = list(by_spk)
    a, b, same = [], [], []
    for k in range(n_pairs):
        s = speakers[rng.integers(len(speakers))]
        i = by_spk[s][rng.integers(len(by_spk[s]))]
        if k % 2 == 0:
            j = by_spk[s][rng.integers(len(by_spk[s]))]
            same.append(1.0)
        else:
            t = s
            while t == s:
                t = speakers[rng.integers(len(speakers))]
            j = by_spk[t][rng.integers(len(by_spk[t]))]
            same.append(0.0)
        a.append(i)
        b.append(j)
    return np.array(a), np.array(b), np.array(same, dtype=np.float32)
