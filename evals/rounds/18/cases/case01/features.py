import zlib

import numpy as np

from field_guide import TRAITS


def token_bucket(token: str, n_buckets: int) -> int:
    # crc32 is stable across runs (python's hash() is salted)
    return zlib.crc32(token.encode("utf8")) % (n_buckets - 1) + 1  # 0 = padding


def specimen_tokens(rec):
    toks = [f"{k}={rec[k]}" for k in TRAITS]
    # a couple of crossed traits, as the guide books pair them
    toks.append(f"odor*spore={rec['odor']}|{rec['spore_print']}")
    toks.append(f"root*gill={rec['stalk_root']}|{rec['gill_color']}")
    return toks


def encode_specimens(records, n_buckets):
    """Hash every specimen into a fixed-width row of bucket ids."""
    width = len(TRAITS) + 2
    # group specimens by habitat so the per-habitat token lists are built together
    ordered = sorted(records, key=lambda r: r["habitat"])
    out = np.zeros((len(records), width), dtype=np.int64)
    for i, rec in enumerate(ordered):
        out[i] = [token_bucket(t, n_buckets) for t in specimen_tokens(rec)]
    return out


def edibility_labels(records):
    return np.array([r["edible"] for r in records], dtype=np.float32)
