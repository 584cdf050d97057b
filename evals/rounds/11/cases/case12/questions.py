import random

TYPES = ["person", "location", "number", "date", "reason", "definition"]

_TEMPLATES = {
    "person": ["who {v} the {n}", "which {r} {v} the {n}", "name the {r} who {v} the {n}",
               "who was the first {r} to {v2} {n}"],
    "location": ["where is the {n}", "where did the {r} {v2} the {n}", "in which {place} is the {n}",
                 "what {place} has the largest {n}"],
    "number": ["how many {n} are in the {n2}", "how much does the {n} cost", "what is the population of the {place}",
               "how many {r} {v} the {n}"],
    "date": ["when did the {r} {v2} the {n}", "what year was the {n} built", "when was the {n} {v}",
             "in what year did the {r} {v2} the {n}"],
    "reason": ["why did the {r} {v2} the {n}", "why is the {n} {adj}", "what caused the {n} to {v2}",
               "for what reason was the {n} {v}"],
    "definition": ["what is a {n}", "what does {n} mean", "define the term {n}", "what is meant by {adj} {n}"],
}
_FILL = {
    "n": ["bridge", "novel", "vaccine", "river", "treaty", "telescope", "opera", "tower", "engine",
          "festival", "empire", "painting", "theory", "canal", "museum", "election", "glacier"],
    "n2": ["box", "team", "orchestra", "library", "fleet", "parliament"],
    "r": ["scientist", "king", "architect", "author", "company", "general", "explorer", "team"],
    "v": ["invented", "designed", "wrote", "discovered", "founded", "painted", "built", "signed"],
    "v2": ["invent", "design", "write", "discover", "found", "paint", "build", "sign", "leave", "close"],
    "place": ["country", "city", "state", "region", "province"],
    "adj": ["famous", "dangerous", "important", "unusual", "expensive", "ancient"],
}


def make_questions(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        t = rng.randrange(len(TYPES))
        tpl = rng.choice(_TEMPLATES[TYPES[t]])
        q = tpl.format(**{k: rng.choice(v) for k, v in _FILL.items()})
        words = q.split()
        if rng.random() < 0.3:      # chatty prefix
            words = rng.choice([["hey"], ["quick", "question"], ["i", "wonder"], ["tell", "me"]]) + words
        out.append((words, t))
    return out
