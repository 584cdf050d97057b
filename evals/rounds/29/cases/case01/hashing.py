import hashlib

import numpy as np


def _bucket(token, n_buckets):
    h = hashlib.blake2b(token.encode(), digest_size=4).digest()
    return int.from_bytes(h, "little") % n_buckets


def featurize(texts, n_buckets=4096):
    x = np.zeros((len(texts), n_buckets), np.float32)
    for i, t in enumerate(texts):
        t = t.lower()
        toks = [t[j:j + 3] for j in range(len(t) - 2)]
        toks += [part.split("=")[0] + "=" for part in t.replace("&", ";").replace("|", ";").split(";")]
        for tok in toks:
            x[i, _bucket(tok, n_buckets)] += 1.0
    return np.log1p(x)
