"""Synthetic flea-market listings, generated category by category."""
import random

CATEGORIES = {
    "furniture": "dresser drawer oak table chair shelf cabinet walnut pine sofa stool bench wardrobe",
    "vinyl": "lp record vinyl sleeve 45rpm pressing jazz funk album gatefold needle crackle soul",
    "books": "paperback hardcover novel edition signed atlas cookbook volume poetry spine dustjacket",
    "toys": "lego doll puzzle action figure boardgame marbles teddy robot kite yoyo trainset",
    "tools": "wrench drill hammer saw chisel pliers socket clamp vise spanner plane level",
    "clothing": "jacket denim wool sweater boots scarf leather coat dress shirt hat size",
    "kitchen": "pan skillet teapot mug kettle cast iron whisk bowl knife spoon enamel jar",
    "electronics": "radio cassette speaker amplifier camera lens charger cable walkman tube stereo remote",
}
SHARED = ("vintage good condition used cheap offer pickup only cash works fine old "
          "great must go bundle deal retro some scratches rare clean").split()


def generate(n_per_category, seed):
    rng = random.Random(seed)
    names = list(CATEGORIES)
    texts, labels = [], []
    for label, name in enumerate(names):
        own = CATEGORIES[name].split()
        for _ in range(n_per_category):
            words = rng.sample(own, rng.randint(1, 3))
            # listings borrow words from other stalls ("radio cabinet", "tool chest")
            other = CATEGORIES[names[rng.randrange(len(names))]].split()
            words += rng.sample(other, rng.randint(0, 1))
            words += [rng.choice(SHARED) for _ in range(rng.randint(3, 9))]
            rng.shuffle(words)
            texts.append(" ".join(words))
            labels.append(label)
    return texts, labels, names
