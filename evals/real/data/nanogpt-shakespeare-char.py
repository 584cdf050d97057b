"""data/shakespeare_char/{train.bin,val.bin,meta.pkl} for nanoGPT, as its prepare.py makes them.

The repo's prepare.py downloads tiny-shakespeare; here the text is English-like prose from
a small grammar, encoded the same way (sorted characters -> uint16 ids, first 90% train,
last 10% val, meta.pkl with vocab_size/itos/stoi). *.bin and *.pkl are git-ignored in the
repo, so a clone never has them.
"""

import os
import pickle
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _synth import prose  # noqa: E402

out = os.path.join("data", "shakespeare_char")
os.makedirs(out, exist_ok=True)
data = prose(300_000, seed=0)
chars = sorted(set(data))
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
n = len(data)
for name, part in (("train", data[: int(n * 0.9)]), ("val", data[int(n * 0.9) :])):
    np.array([stoi[c] for c in part], dtype=np.uint16).tofile(os.path.join(out, f"{name}.bin"))
with open(os.path.join(out, "meta.pkl"), "wb") as f:
    pickle.dump({"vocab_size": len(chars), "itos": itos, "stoi": stoi}, f)
