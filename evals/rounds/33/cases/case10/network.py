"""Station layout of the tram network: (src, dst, relation)."""
N_STATIONS = 16
RELATIONS = ["uphill", "downhill", "transfer"]


def edges():
    e = []
    for line_start, line_end in [(0, 6), (6, 11), (11, 16)]:
        for s in range(line_start, line_end - 1):
            e.append((s, s + 1, "uphill"))
            e.append((s + 1, s, "downhill"))
    for a, b in [(3, 8), (8, 13), (5, 14), (1, 11)]:
        e.append((a, b, "transfer"))
        e.append((b, a, "transfer"))
    return e
