import random

N_CONCEPTS = 60
PAD = 0


def word_id(concept, form):
    return 1 + 2 * concept + form          # 0 is padding


def render(concepts, rng, p_swap):
    words = [word_id(c, int(rng.random() < p_swap)) for c in concepts]
    # light local reordering
    for i in range(len(words) - 1):
        if rng.random() < 0.2:
            words[i], words[i + 1] = words[i + 1], words[i]
    return words


def make_pairs(n, seed, length=8):
    rng = random.Random(seed)
    a_list, b_list, labels = [], [], []
    for _ in range(n):
        concepts = rng.sample(range(N_CONCEPTS), length)
        base_forms = [rng.randint(0, 1) for _ in concepts]
        a = [word_id(c, f) for c, f in zip(concepts, base_forms)]
        if rng.random() < 0.5:
            # paraphrase: mostly the other surface form
            b = [word_id(c, 1 - f if rng.random() < 0.75 else f) for c, f in zip(concepts, base_forms)]
            for i in range(len(b) - 1):
                if rng.random() < 0.2:
                    b[i], b[i + 1] = b[i + 1], b[i]
            y = 1
        else:
            changed = list(concepts)
            for pos in rng.sample(range(length), 3):
                changed[pos] = rng.choice([c for c in range(N_CONCEPTS) if c not in concepts])
            b = [word_id(c, f) for c, f in zip(changed, base_forms)]
            y = 0
        a_list.append(a)
        b_list.append(b)
        labels.append(y)
    return a_list, b_list, labels
