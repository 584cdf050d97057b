"""Fake sign-up sheet for the night market."""
import random

CATEGORIES = ["skewers", "noodles", "dessert", "drinks", "trinkets", "games"]

VOCAB = {
    "skewers": "grilled skewer chicken pork satay charcoal lamb cumin squid sauce".split(),
    "noodles": "noodle broth ramen wok fried beef soup chili dumpling bowl".split(),
    "dessert": "mochi pancake sweet cream taro waffle ice syrup custard bean".split(),
    "drinks": "tea bubble milk juice lemon iced boba coffee fresh sugarcane".split(),
    "trinkets": "bracelet keychain handmade phone case earrings beads sticker charm".split(),
    "games": "ring toss balloon darts prize fishing shoot claw win plush".split(),
}
SHARED = "hot cheap best tasty new famous big small local special".split()
FILLER = "the a and we our with for of at".split()


def make_sheet(n=3000, seed=0):
    rnd = random.Random(seed)
    texts, labels = [], []
    for _ in range(n):
        c = rnd.randrange(len(CATEGORIES))
        if rnd.random() < 0.12:
            # vendor only wrote filler ("we are at the ...") -> empty after cleaning
            words = rnd.choices(FILLER, k=rnd.randint(1, 4))
        else:
            words = (rnd.choices(VOCAB[CATEGORIES[c]], k=rnd.randint(2, 5))
                     + rnd.choices(SHARED, k=rnd.randint(0, 3))
                     + rnd.choices(FILLER, k=rnd.randint(0, 3)))
            # cross-over words: a noodle stall that also sells tea, etc.
            if rnd.random() < 0.3:
                other = CATEGORIES[rnd.randrange(len(CATEGORIES))]
                words += rnd.choices(VOCAB[other], k=1)
        rnd.shuffle(words)
        texts.append(" ".join(words).upper() if rnd.random() < 0.2 else " ".join(words))
        labels.append(c)
    return texts, labels
