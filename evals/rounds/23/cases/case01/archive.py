"""Synthetic stand-in for the zine archive export.

Every record is a dict with an archive id, the OCR text and the catalogued topic.
The export comes out in catalogue order (grouped by shelf), ids are accession numbers.
"""
import random

TOPICS = ["punk", "gardening", "comics", "politics", "cooking"]

_TOPIC_WORDS = {
    "punk": "gig riot amp chord basement flyer mosh band distortion stage patch safety pin drummer".split(),
    "gardening": "seed compost soil bloom tomato mulch trowel allotment sprout bee weed harvest frost".split(),
    "comics": "panel ink hero villain cape sketch issue strip speech bubble artist colour page".split(),
    "politics": "vote council protest union rent strike petition mayor policy tenant rally budget".split(),
    "cooking": "recipe bake flour oven spice broth knife simmer dough lentil garlic butter pan".split(),
}
_FILLER = ("the a of and to in is it for on with this that we our you photocopy staple issue "
           "cover back zine page free").split()


def build_archive(n_per_topic=400, seed=1234):
    rng = random.Random(seed)
    records = []
    used = set()
    for topic in TOPICS:  # catalogue order: one shelf per topic
        for _ in range(n_per_topic):
            acc = rng.randrange(10000, 99999)
            while acc in used:
                acc = rng.randrange(10000, 99999)
            used.add(acc)
            n_words = rng.randint(25, 60)
            words = []
            for _ in range(n_words):
                r = rng.random()
                if r < 0.30:
                    words.append(rng.choice(_TOPIC_WORDS[topic]))
                elif r < 0.40:
                    other = rng.choice(TOPICS)
                    words.append(rng.choice(_TOPIC_WORDS[other]))
                else:
                    words.append(rng.choice(_FILLER))
            records.append({"id": f"ZN-{acc}", "text": " ".join(words), "topic": topic})
    return records
