import numpy as np


def synth_graph(n_entities=200, n_relations=8, latent=6, seed=0):
    """Every (h, r) has exactly one tail: the entity with the best trilinear match."""
    rng = np.random.default_rng(seed)
    E = rng.standard_normal((n_entities, latent))
    R = rng.standard_normal((n_relations, latent))
    triples = []
    for r in range(n_relations):
        scores = (E * R[r]) @ E.T
        np.fill_diagonal(scores, -np.inf)
        tails = scores.argmax(1)
        triples += [(h, r, int(t)) for h, t in enumerate(tails)]
    triples = np.array(triples, dtype=np.int64)
    rng.shuffle(triples)
    n_test = len(triples) // 5
    return triples[n_test:], triples[:n_test]
