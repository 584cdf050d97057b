"""Tiny forum vocabulary with synonym groups and a fixed word-vector table."""
import numpy as np

QWORDS = ["how", "why", "what", "can", "where"]
GROUPS = [["reset", "restore", "recover"], ["password", "passcode", "pin"], ["account", "profile"],
          ["delete", "remove", "erase"], ["email", "mail"], ["phone", "mobile"], ["invoice", "bill", "receipt"],
          ["change", "update", "modify"], ["login", "signin"], ["address", "location"],
          ["refund", "reimbursement"], ["order", "purchase"], ["app", "application"], ["photo", "picture", "image"],
          ["cancel", "stop"], ["subscription", "plan"], ["download", "export"], ["language", "locale"]]
FILLER = ["i", "my", "the", "a", "do", "to", "is", "please", "on", "me"]
VOCAB = ["<pad>"] + QWORDS + [w for g in GROUPS for w in g] + FILLER
STOI = {w: i for i, w in enumerate(VOCAB)}
GROUP_OF = {w: gi for gi, g in enumerate(GROUPS) for w in g}


def vector_table(dim, seed=0):
    rng = np.random.default_rng(seed)
    base = rng.normal(0, 1, (len(GROUPS) + len(QWORDS) + len(FILLER), dim))
    table = np.zeros((len(VOCAB), dim), dtype=np.float32)
    for w, i in STOI.items():
        if w in GROUP_OF:
            table[i] = base[GROUP_OF[w]] + rng.normal(0, 0.15, dim)
        elif w in QWORDS:
            table[i] = base[len(GROUPS) + QWORDS.index(w)]
        elif w in FILLER:
            table[i] = 0.3 * base[len(GROUPS) + len(QWORDS) + FILLER.index(w)]
    return table
