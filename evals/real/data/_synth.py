"""Synthetic data with real signal, shared by the suite's data scripts (our own writing).

Every generator is deterministic for a given seed and needs only numpy:
- `digits`: MNIST-like 28x28 uint8 images, each class drawn as its own pen strokes under
  a random affine jitter, stroke width and noise, so a small model learns them well but
  not instantly;
- `write_mnist_idx`: the four IDX files torchvision's MNIST reads, in ROOT/MNIST/raw;
- `sentences`: English-like text from a small grammar (agreement, word order, topics), so
  a language model gets clearly below the unigram entropy;
- `cora_like`: a citation-graph node classification set (bag-of-words rows, homophilous
  edges) in the two-file format of the Cora dataset.
"""

import math
import os

import numpy as np

# Pen strokes per digit, as polylines in a unit box (x right, y down).
_ARC = [(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 13)]


def _ellipse(cx, cy, rx, ry, start=0.0, stop=2 * math.pi, n=10):
    return [(cx + rx * math.cos(t), cy + ry * math.sin(t)) for t in np.linspace(start, stop, n)]


_STROKES = {
    0: [_ellipse(0.5, 0.5, 0.28, 0.42, n=14)],
    1: [[(0.38, 0.25), (0.55, 0.08), (0.55, 0.92)], [(0.4, 0.92), (0.7, 0.92)]],
    2: [_ellipse(0.5, 0.32, 0.27, 0.24, math.pi, 2.2 * math.pi, 8) + [(0.22, 0.9), (0.8, 0.9)]],
    3: [
        _ellipse(0.48, 0.3, 0.25, 0.21, -0.8 * math.pi, 0.5 * math.pi, 8),
        _ellipse(0.48, 0.7, 0.28, 0.22, -0.5 * math.pi, 0.85 * math.pi, 8),
    ],
    4: [[(0.62, 0.92), (0.62, 0.08), (0.18, 0.65), (0.82, 0.65)]],
    5: [
        [(0.78, 0.1), (0.3, 0.1), (0.26, 0.46)],
        _ellipse(0.48, 0.66, 0.28, 0.25, -0.75 * math.pi, 0.8 * math.pi, 9),
    ],
    6: [[(0.7, 0.1), (0.4, 0.35), (0.26, 0.65)], _ellipse(0.5, 0.7, 0.24, 0.2, 0, 2 * math.pi, 10)],
    7: [[(0.2, 0.12), (0.8, 0.12), (0.42, 0.92)], [(0.38, 0.52), (0.7, 0.52)]],
    8: [
        _ellipse(0.5, 0.29, 0.2, 0.19, 0, 2 * math.pi, 10),
        _ellipse(0.5, 0.7, 0.25, 0.21, 0, 2 * math.pi, 10),
    ],
    9: [
        _ellipse(0.5, 0.32, 0.23, 0.21, 0, 2 * math.pi, 10),
        [(0.73, 0.32), (0.68, 0.6), (0.55, 0.92)],
    ],
}


def _pen_points(digit, per_unit=40):
    """Points along the digit's strokes, about per_unit per unit of length -> (K, 2)."""
    pts = []
    for line in _STROKES[digit]:
        line = np.asarray(line, dtype=np.float32)
        for a, b in zip(line[:-1], line[1:]):
            k = max(2, int(np.linalg.norm(b - a) * per_unit))
            t = np.linspace(0, 1, k, endpoint=False, dtype=np.float32)[:, None]
            pts.append(a + t * (b - a))
        pts.append(line[-1:])
    return np.concatenate(pts)


_GRID = np.arange(28, dtype=np.float32) + 0.5  # pixel centres


def _render(points, rng, n):
    """n jittered drawings of one digit's pen points -> (n, 28, 28) uint8.

    Each pen point is a Gaussian blob; a blob is separable, so an image is the product of
    two (K, 28) matrices: ink[y, x] = sum_k gy[k, y] * gx[k, x].
    """
    ang = rng.uniform(-0.22, 0.22, n).astype(np.float32)
    scale = rng.uniform(15.0, 21.0, n).astype(np.float32)
    shear = rng.uniform(-0.25, 0.25, n).astype(np.float32)
    shift = (rng.uniform(-2.5, 2.5, (n, 2)) + 14.0).astype(np.float32)
    cos, sin = np.cos(ang), np.sin(ang)
    lin = (
        np.stack(
            [np.stack([cos, cos * shear - sin], -1), np.stack([sin, sin * shear + cos], -1)], 1
        )
        * scale[:, None, None]
    )  # (n, 2, 2)
    # Smooth per-drawing wobble: two random control offsets blended along the stroke.
    k = len(points)
    w = np.linspace(0, 1, k, dtype=np.float32)[None, :, None]
    wobble = rng.normal(0, 0.04, (n, 2, 2)).astype(np.float32)
    local = points[None] - 0.5 + (1 - w) * wobble[:, None, 0] + w * wobble[:, None, 1]
    pts = np.einsum("nij,nkj->nki", lin, local) + shift[:, None, :]  # (n, K, 2)
    sigma = rng.uniform(0.55, 0.85, (n, 1, 1)).astype(np.float32)
    gx = np.exp(-((pts[..., 0:1] - _GRID) ** 2) / (2 * sigma**2))  # (n, K, 28)
    gy = np.exp(-((pts[..., 1:2] - _GRID) ** 2) / (2 * sigma**2))
    ink = np.matmul(gy.transpose(0, 2, 1), gx) / 1.3  # (n, 28 y, 28 x)
    ink = 1.0 - np.exp(-ink * rng.uniform(0.9, 1.6, (n, 1, 1)).astype(np.float32))
    ink = ink + rng.normal(0, 0.04, ink.shape).astype(np.float32)
    return (np.clip(ink, 0, 1) * 255).round().astype(np.uint8)


def digits(n, seed, class_sorted=False):
    """n MNIST-like images and labels; shuffled unless class_sorted (labels 0,0,...,9,9)."""
    rng = np.random.default_rng(seed)
    labels = np.sort(rng.integers(0, 10, n)) if class_sorted else rng.integers(0, 10, n)
    images = np.empty((n, 28, 28), dtype=np.uint8)
    for d in range(10):
        idx = np.flatnonzero(labels == d)
        images[idx] = _render(_pen_points(d), rng, len(idx))
    return images, labels.astype(np.uint8)


def _write_idx(path, array):
    array = np.ascontiguousarray(array, dtype=np.uint8)
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(
        int(s).to_bytes(4, "big") for s in array.shape
    )
    with open(path, "wb") as f:
        f.write(header + array.tobytes())


def write_mnist_idx(root, n_train, n_test, seed=0, class_sorted=False):
    """Write ROOT/MNIST/raw/{train,t10k}-{images-idx3,labels-idx1}-ubyte."""
    raw = os.path.join(root, "MNIST", "raw")
    os.makedirs(raw, exist_ok=True)
    for prefix, n, s, sort in (
        ("train", n_train, seed, class_sorted),
        ("t10k", n_test, seed + 1, False),
    ):
        images, labels = digits(n, s, class_sorted=sort)
        _write_idx(os.path.join(raw, f"{prefix}-images-idx3-ubyte"), images)
        _write_idx(os.path.join(raw, f"{prefix}-labels-idx1-ubyte"), labels)
    return raw


# ---- text ---------------------------------------------------------------------------

_NOUNS = {
    "animal": ["cat", "dog", "horse", "bird", "fox", "rabbit", "wolf", "goat"],
    "person": ["king", "queen", "farmer", "soldier", "child", "merchant", "sailor", "priest"],
    "thing": ["ship", "house", "sword", "letter", "river", "garden", "bridge", "wheel"],
}
_PLURAL = {"child": "children", "wolf": "wolves", "fox": "foxes"}
_VERBS = {  # verb -> object kinds it takes
    "sees": ["animal", "person", "thing"],
    "follows": ["animal", "person"],
    "builds": ["thing"],
    "feeds": ["animal", "person"],
    "carries": ["thing", "animal"],
    "greets": ["person"],
    "finds": ["thing", "animal"],
    "watches": ["animal", "person", "thing"],
}
_VERB_PLURAL = {"carries": "carry", "watches": "watch"}
_ADJ = {
    "animal": ["small", "wild", "hungry", "old"],
    "person": ["old", "young", "wise", "tired"],
    "thing": ["old", "broken", "long", "golden"],
}
_PLACES = ["near the river", "in the garden", "at the market", "on the hill", "by the gate"]
_TIMES = ["in the morning", "at night", "every day", "before the storm"]


def _plural(noun):
    return _PLURAL.get(noun, noun + "s")


def _np(rng, kind, plural):
    noun = _NOUNS[kind][rng.integers(len(_NOUNS[kind]))]
    words = ["the"] if plural or rng.random() < 0.6 else ["a"]
    if rng.random() < 0.5:
        words.append(_ADJ[kind][rng.integers(len(_ADJ[kind]))])
    words.append(_plural(noun) if plural else noun)
    return words


def sentence(rng):
    plural = rng.random() < 0.35
    kind = ["animal", "person"][rng.integers(2)]
    verbs = list(_VERBS)
    verb = verbs[rng.integers(len(verbs))]
    obj_kind = _VERBS[verb][rng.integers(len(_VERBS[verb]))]
    words = _np(rng, kind, plural)
    words.append(_VERB_PLURAL.get(verb, verb[:-1]) if plural else verb)
    words += _np(rng, obj_kind, rng.random() < 0.3)
    r = rng.random()
    if r < 0.35:
        words += _PLACES[rng.integers(len(_PLACES))].split()
    elif r < 0.55:
        words += _TIMES[rng.integers(len(_TIMES))].split()
    if rng.random() < 0.25:
        words += [
            "and",
            "then",
            "they" if plural else ("she" if kind == "person" else "it"),
            "rest" if plural else "rests",
        ]
    return words


def sentences(n, seed):
    """n grammar sentences as word lists (without the final period)."""
    rng = np.random.default_rng(seed)
    return [sentence(rng) for _ in range(n)]


def prose(n_chars, seed, line_words=(6, 14)):
    """Capitalised sentences with periods, wrapped in lines, about n_chars characters."""
    rng = np.random.default_rng(seed)
    out, line, size = [], [], 0
    while size < n_chars:
        words = sentence(rng)
        words[0] = words[0].capitalize()
        words[-1] += "."
        for w in words:
            line.append(w)
            if len(line) >= rng.integers(*line_words):
                text = " ".join(line)
                out.append(text)
                size += len(text) + 1
                line = []
    return "\n".join(out) + "\n"


# ---- graph --------------------------------------------------------------------------


def cora_like(path, n_nodes=2708, n_feats=600, n_classes=7, seed=0):
    """Write PATH/cora.content ("id f1..fF label" rows) and PATH/cora.cites ("id id" rows)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, n_classes, n_nodes)
    topic = rng.random((n_classes, n_feats)) < 0.06  # each class's typical words
    p = np.where(topic[labels], 0.09, 0.012)
    feats = (rng.random((n_nodes, n_feats)) < p).astype(np.int32)
    ids = rng.choice(np.arange(1000, 10_000_000), size=n_nodes, replace=False)
    names = [f"Class_{c}" for c in range(n_classes)]
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "cora.content"), "w") as f:
        for i in range(n_nodes):
            f.write(f"{ids[i]}\t" + "\t".join(map(str, feats[i])) + f"\t{names[labels[i]]}\n")
    by_class = [np.flatnonzero(labels == c) for c in range(n_classes)]
    edges = set()
    while len(edges) < int(n_nodes * 1.95):
        a = int(rng.integers(n_nodes))
        if rng.random() < 0.82:
            b = int(rng.choice(by_class[labels[a]]))
        else:
            b = int(rng.integers(n_nodes))
        if a != b:
            edges.add((a, b))
    with open(os.path.join(path, "cora.cites"), "w") as f:
        for a, b in sorted(edges):
            f.write(f"{ids[a]}\t{ids[b]}\n")
