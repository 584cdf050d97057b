"""A toy tagging corpus: words whose tag sometimes depends on the previous word.

Tags: DET, NOUN, VERB, ADJ, ADV. "Ambiguous" words (like English "run", "light")
are NOUN after a determiner or adjective and VERB otherwise. The tags imitate silver
annotations: about 4% of them are replaced by a random tag.
"""
import json
import os
import random

TAGS = ["DET", "NOUN", "VERB", "ADJ", "ADV"]
LEXICON = {
    "DET": ["the", "a", "this", "every", "some"],
    "NOUN": ["dog", "river", "city", "idea", "table", "song", "garden", "doctor"],
    "VERB": ["eats", "sees", "builds", "sings", "finds", "opens"],
    "ADJ": ["red", "quiet", "old", "bright", "small", "happy"],
    "ADV": ["slowly", "often", "never", "quickly"],
}
AMBIGUOUS = ["run", "light", "watch", "plant", "drink", "walk"]


def _sentence(rng):
    words, tags = [], []
    for _ in range(rng.randint(1, 4)):
        words.append(rng.choice(LEXICON["DET"])); tags.append("DET")
        if rng.random() < 0.5:
            words.append(rng.choice(LEXICON["ADJ"])); tags.append("ADJ")
        if rng.random() < 0.4:
            words.append(rng.choice(AMBIGUOUS)); tags.append("NOUN")
        else:
            words.append(rng.choice(LEXICON["NOUN"])); tags.append("NOUN")
        if rng.random() < 0.3:
            words.append(rng.choice(LEXICON["ADV"])); tags.append("ADV")
        if rng.random() < 0.5:
            words.append(rng.choice(AMBIGUOUS)); tags.append("VERB")
        else:
            words.append(rng.choice(LEXICON["VERB"])); tags.append("VERB")
    return words, tags


def build_corpus(path, n_sentences, seed):
    rng = random.Random(seed)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        for _ in range(n_sentences):
            words, tags = _sentence(rng)
            tags = [rng.choice(TAGS) if rng.random() < 0.04 else t for t in tags]
            fh.write(json.dumps({"words": words, "tags": tags}) + "\n")


def read_corpus(path):
    with open(path) as fh:
        return [json.loads(line) for line in fh]


class Vocab:
    PAD, UNK = "<pad>", "<unk>"

    def __init__(self, sentences):
        words = sorted({w for s in sentences for w in s["words"]})
        self.itos = [self.PAD, self.UNK] + words
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    @property
    def pad_id(self):
        return self.stoi[self.PAD]

    def encode(self, words):
        return [self.stoi.get(w, self.stoi[self.UNK]) for w in words]

    def __len__(self):
        return len(self.itos)
