"""A toy origami 'diagram grammar': each model is a base followed by its own finishing folds."""
import random

FOLDS = ["valley", "mountain", "squash", "petal", "inside_rev", "outside_rev", "sink", "rabbit_ear", "turn_over", "rotate"]
EDGES = ["top", "bottom", "left", "right", "diag_a", "diag_b", "center"]
TOKENS = ["<model>"] + [f"{f}:{e}" for f in FOLDS for e in EDGES]
STOI = {t: i for i, t in enumerate(TOKENS)}

BASES = {
    "square_base": ["valley:diag_a", "valley:diag_b", "mountain:center", "squash:left", "squash:right"],
    "bird_base": ["valley:diag_a", "valley:diag_b", "mountain:center", "squash:left", "squash:right",
                  "petal:top", "turn_over:center", "petal:top"],
    "kite_base": ["valley:diag_a", "valley:left", "valley:right"],
    "waterbomb": ["mountain:diag_a", "mountain:diag_b", "valley:center", "squash:top", "squash:bottom"],
}
FINISH = {
    "crane": ("bird_base", ["inside_rev:left", "inside_rev:right", "inside_rev:left", "valley:top", "valley:bottom"]),
    "lily": ("bird_base", ["petal:bottom", "turn_over:center", "petal:bottom", "valley:left", "valley:right"]),
    "frog": ("square_base", ["squash:top", "petal:top", "sink:top", "rabbit_ear:left", "rabbit_ear:right"]),
    "fox": ("kite_base", ["mountain:center", "outside_rev:top", "valley:diag_b"]),
    "dart": ("kite_base", ["valley:left", "valley:right", "mountain:center", "rotate:center"]),
    "balloon": ("waterbomb", ["valley:left", "valley:right", "valley:top", "valley:bottom", "turn_over:center"]),
    "tulip": ("waterbomb", ["valley:diag_a", "valley:diag_b", "turn_over:center", "squash:left"]),
}


def session(n_models, seed):
    rng = random.Random(seed)
    out = []
    names = sorted(FINISH)
    for _ in range(n_models):
        base, finish = FINISH[rng.choice(names)]
        steps = ["<model>"] + BASES[base] + finish
        # folders sometimes flip the paper over or rotate it between steps
        noisy = []
        for s in steps:
            noisy.append(s)
            if rng.random() < 0.08:
                noisy.append(rng.choice(["turn_over:center", "rotate:center"]))
        out.extend(STOI[s] for s in noisy)
    return out
