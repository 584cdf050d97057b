import random

import torch

ATOMS = ["C", "N", "O", "S", "Cl", "F"]
PROBS = [0.55, 0.15, 0.17, 0.05, 0.04, 0.04]
VALENCE = {"C": 4, "N": 3, "O": 2, "S": 2, "Cl": 1, "F": 1}


def random_molecule(rng, max_atoms):
    n = rng.randint(8, max_atoms)
    types = rng.choices(range(len(ATOMS)), PROBS, k=n)
    types[0] = 0
    edges = set()
    degree = [0] * n
    for i in range(1, n):
        cands = [j for j in range(i) if degree[j] < VALENCE[ATOMS[types[j]]]]
        j = rng.choice(cands) if cands else 0
        edges.add((j, i))
        degree[i] += 1
        degree[j] += 1
    for _ in range(rng.randint(0, 2)):  # ring closures
        a, b = rng.sample(range(n), 2)
        if abs(a - b) > 2 and degree[a] < VALENCE[ATOMS[types[a]]] and degree[b] < VALENCE[ATOMS[types[b]]]:
            edges.add((min(a, b), max(a, b)))
            degree[a] += 1
            degree[b] += 1
    return types, sorted(edges)


def has_alert(types, edges):
    nbrs = {i: [] for i in range(len(types))}
    for a, b in edges:
        nbrs[a].append(b)
        nbrs[b].append(a)
    for i, t in enumerate(types):
        if ATOMS[t] == "N" and sum(ATOMS[types[j]] == "O" for j in nbrs[i]) >= 2:
            return True
        if ATOMS[t] == "S" and any(ATOMS[types[j]] == "Cl" for j in nbrs[i]):
            return True
    return False


def build_dataset(n, max_atoms, seed):
    """Dense tensors: atom types [n, A] (-1 = padding), adjacency [n, A, A], labels [n]."""
    rng = random.Random(seed)
    X = torch.full((n, max_atoms), -1, dtype=torch.long)
    A = torch.zeros(n, max_atoms, max_atoms)
    y = torch.zeros(n)
    i = 0
    pos_target = n // 2
    n_pos = 0
    while i < n:
        types, edges = random_molecule(rng, max_atoms)
        alert = has_alert(types, edges)
        # keep the endpoint roughly balanced
        if alert and n_pos >= pos_target or (not alert and i - n_pos >= n - pos_target):
            continue
        X[i, : len(types)] = torch.tensor(types)
        for a, b in edges:
            A[i, a, b] = A[i, b, a] = 1.0
        y[i] = float(alert)
        n_pos += int(alert)
        i += 1
    return X, A, y
