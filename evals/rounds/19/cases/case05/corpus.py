"""Synthetic recipe-blog corpus: each cuisine draws from its own pool plus a shared pantry."""
import numpy as np

CUISINES = ["japanese", "mexican", "italian", "indian", "thai", "french", "ethiopian", "korean"]
PANTRY = ["salt", "pepper", "onion", "garlic", "oil", "water", "sugar", "butter", "egg", "flour",
          "lemon", "tomato", "rice", "chicken", "beef", "pork", "carrot", "potato", "milk", "vinegar"]


def cuisine_pool(name, rng, size=30):
    return [f"{name[:3]}_{k}" for k in rng.choice(200, size=size, replace=False)]


def build(posts_per_cuisine, seed):
    rng = np.random.default_rng(seed)
    pools = {c: cuisine_pool(c, rng) for c in CUISINES}
    posts, labels = [], []
    for label, c in enumerate(CUISINES):
        for _ in range(posts_per_cuisine):
            n_own = rng.integers(2, 5)
            n_pantry = rng.integers(4, 9)
            # bloggers borrow: ~30% chance of an ingredient from another cuisine
            other = CUISINES[rng.integers(len(CUISINES))]
            ings = list(rng.choice(pools[c], n_own, replace=False))
            ings += list(rng.choice(PANTRY, n_pantry, replace=False))
            if rng.random() < 0.3:
                ings.append(rng.choice(pools[other]))
            posts.append(ings)
            labels.append(label)
    return posts, np.array(labels)
