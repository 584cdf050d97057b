"""Synthetic protein families and k-mer featurization."""
from collections import namedtuple

import numpy as np

AMINO = "ACDEFGHIKLMNPQRSTVWY"
Record = namedtuple("Record", "id seq family")


def generate_records(n, n_families=6, seed=0):
    rng = np.random.default_rng(seed)
    fam_rng = np.random.default_rng(42)
    background = np.full(20, 1 / 20)
    comps, motifs = [], []
    for _ in range(n_families):
        comps.append(fam_rng.dirichlet(np.full(20, 8.0)))
        motifs.append("".join(fam_rng.choice(list(AMINO), 4)))
    records, used = [], set()
    for _ in range(n):
        fam = int(rng.integers(n_families))
        length = int(rng.integers(80, 160))
        p = 0.6 * comps[fam] + 0.4 * background
        seq = list(rng.choice(list(AMINO), length, p=p))
        for _ in range(rng.integers(1, 3)):
            pos = rng.integers(0, length - 4)
            motif = list(motifs[fam])
            if rng.random() < 0.3:                      # point mutation in the motif
                motif[rng.integers(4)] = rng.choice(list(AMINO))
            seq[pos:pos + 4] = motif
        while True:
            pid = f"UPX{rng.integers(10**5, 10**6)}"
            if pid not in used:
                used.add(pid)
                break
        records.append(Record(pid, "".join(seq), fam))
    return records


def kmer_vocab(k):
    vocab = [""]
    for _ in range(k):
        vocab = [v + a for v in vocab for a in AMINO]
    return {kmer: i for i, kmer in enumerate(vocab)}


def featurize(records, ks=(1, 2)):
    """Normalized k-mer frequency matrix, one row per unique sequence id."""
    by_id = {r.id: r.seq for r in records}
    vocabs = [kmer_vocab(k) for k in ks]
    ids = sorted(by_id)
    X = np.zeros((len(ids), sum(len(v) for v in vocabs)), np.float32)
    for row, pid in enumerate(ids):
        seq, off = by_id[pid], 0
        for k, vocab in zip(ks, vocabs):
            for j in range(len(seq) - k + 1):
                X[row, off + vocab[seq[j:j + k]]] += 1
            X[row, off:off + len(vocab)] /= max(len(seq) - k + 1, 1)
            off += len(vocab)
    return X, ids


def family_labels(records):
    return np.array([r.family for r in records], dtype=np.int64)
