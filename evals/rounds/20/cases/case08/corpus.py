import numpy as np

TOPICS = ["outdoors", "music", "food", "tech", "travel", "arts", "sports", "pets"]
FILLER = ("i am love like really enjoy looking for someone who also my weekend the a and to "
          "with fun honest kind laugh coffee friends family good life new things").split()


def _topic_words(rng, k, per_topic=40):
    return [[f"{TOPICS[t][:3]}{j}" for j in range(per_topic)] for t in range(k)]


def make_profiles(n, seed=0):
    rng = np.random.default_rng(seed)
    words = _topic_words(np.random.default_rng(1234), len(TOPICS))
    texts, labels = [], []
    for _ in range(n):
        t = int(rng.integers(len(TOPICS)))
        other = int(rng.integers(len(TOPICS)))
        length = int(rng.integers(12, 30))
        toks = []
        for _ in range(length):
            r = rng.random()
            if r < 0.15:
                toks.append(words[t][int(rng.integers(40))])
            elif r < 0.19:
                toks.append(words[other][int(rng.integers(40))])
            else:
                toks.append(FILLER[int(rng.integers(len(FILLER)))])
        texts.append(" ".join(toks))
        labels.append(t)
    return texts, np.array(labels)
