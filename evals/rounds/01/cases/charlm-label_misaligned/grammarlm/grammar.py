"""A toy English-like PCFG with subject/verb number agreement."""
import random

DET = {"sg": ["the", "a", "every", "this"], "pl": ["the", "some", "many", "these"]}
ADJ = ["small", "red", "quiet", "old", "clever", "green", "lazy"]
NOUN = {"sg": ["dog", "cat", "robot", "teacher", "river", "bird", "child"],
        "pl": ["dogs", "cats", "robots", "teachers", "rivers", "birds", "children"]}
VERB_T = {"sg": ["sees", "likes", "follows", "paints", "finds"], "pl": ["see", "like", "follow", "paint", "find"]}
VERB_I = {"sg": ["sleeps", "runs", "sings", "waits"], "pl": ["sleep", "run", "sing", "wait"]}
PREP = ["near", "behind", "with", "under"]


def noun_phrase(rng, num, depth=0):
    words = [rng.choice(DET[num])]
    if rng.random() < 0.4:
        words.append(rng.choice(ADJ))
    words.append(rng.choice(NOUN[num]))
    if depth == 0 and rng.random() < 0.25:
        words += [rng.choice(PREP)] + noun_phrase(rng, rng.choice(["sg", "pl"]), depth + 1)
    return words


def sentence(rng):
    num = rng.choice(["sg", "pl"])
    words = noun_phrase(rng, num)
    if rng.random() < 0.6:
        words += [rng.choice(VERB_T[num])] + noun_phrase(rng, rng.choice(["sg", "pl"]))
    else:
        words += [rng.choice(VERB_I[num])]
        if rng.random() < 0.3:
            words.append(rng.choice(["today", "again", "slowly"]))
    return " ".join(words) + " ."


def corpus(n, seed):
    rng = random.Random(seed)
    return "\n".join(sentence(rng) for _ in range(n)) + "\n"
