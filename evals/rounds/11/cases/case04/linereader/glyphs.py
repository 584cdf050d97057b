import numpy as np

# 5x3 bitmap font for the digits 0-9 (meter-display style)
_FONT = {
    0: ["111", "101", "101", "101", "111"],
    1: ["010", "110", "010", "010", "111"],
    2: ["111", "001", "111", "100", "111"],
    3: ["111", "001", "011", "001", "111"],
    4: ["101", "101", "111", "001", "001"],
    5: ["111", "100", "111", "001", "111"],
    6: ["111", "100", "111", "101", "111"],
    7: ["111", "001", "010", "010", "010"],
    8: ["111", "101", "111", "101", "111"],
    9: ["111", "101", "111", "001", "111"],
}

GLYPHS = np.stack([np.array([[int(c) for c in row] for row in _FONT[d]], dtype=np.float32)
                   for d in range(10)])
CELL_W = 6
LINE_H = 9


def render_line(digits, rng, noise=0.35):
    """Render a row of digits into a (LINE_H, CELL_W * len(digits)) grey image."""
    img = np.zeros((LINE_H, CELL_W * len(digits)), dtype=np.float32)
    for k, d in enumerate(digits):
        dy = rng.integers(0, LINE_H - 5 + 1)
        dx = rng.integers(0, CELL_W - 3 + 1)
        ink = rng.uniform(0.6, 1.0)
        img[dy:dy + 5, k * CELL_W + dx:k * CELL_W + dx + 3] += ink * GLYPHS[d]
    img += rng.normal(0, noise, img.shape).astype(np.float32)
    return img
