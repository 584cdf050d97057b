"""Synthetic support-ticket corpus.

Each ticket is a short run of words. Every topic has its own pool of
characteristic words, with a few shared filler words mixed in, plus random
typos so that whole-word lookup is brittle and character n-grams pay off.
"""
import random

TOPICS = ["billing", "shipping", "login", "hardware", "refund", "feature"]

_ROOTS = {
    "billing": ["invoice", "charged", "payment", "card", "statement", "billing", "overcharge", "receipt"],
    "shipping": ["parcel", "courier", "tracking", "delivery", "shipped", "package", "warehouse", "dispatch"],
    "login": ["password", "login", "account", "locked", "username", "twofactor", "reset", "signin"],
    "hardware": ["screen", "battery", "cable", "charger", "keyboard", "broken", "overheat", "firmware"],
    "refund": ["refund", "return", "money", "cancel", "reimburse", "chargeback", "credit", "voucher"],
    "feature": ["export", "darkmode", "shortcut", "integration", "widget", "calendar", "plugin", "api"],
}
_FILLER = ["please", "help", "my", "the", "is", "not", "working", "again", "today", "hello",
           "thanks", "urgent", "since", "yesterday", "order", "app", "issue", "problem"]
_ALPHA = "abcdefghijklmnopqrstuvwxyz"


def _typo(word, rng, p):
    if len(word) < 4 or rng.random() > p:
        return word
    i = rng.randrange(1, len(word) - 1)
    op = rng.random()
    if op < 0.4:
        return word[:i] + word[i + 1:]
    if op < 0.8:
        return word[:i] + rng.choice(_ALPHA) + word[i + 1:]
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def make_tickets(n, seed=0, typo_p=0.5):
    rng = random.Random(seed)
    texts, labels = [], []
    for _ in range(n):
        y = rng.randrange(len(TOPICS))
        words = []
        n_key = rng.randint(1, 3)
        n_fill = rng.randint(3, 9)
        for _ in range(n_key):
            words.append(_typo(rng.choice(_ROOTS[TOPICS[y]]), rng, typo_p))
        # occasional misleading keyword from another topic
        if rng.random() < 0.3:
            other = rng.randrange(len(TOPICS))
            words.append(_typo(rng.choice(_ROOTS[TOPICS[other]]), rng, typo_p))
        words += [rng.choice(_FILLER) for _ in range(n_fill)]
        rng.shuffle(words)
        texts.append(" ".join(words))
        labels.append(y)
    return texts, labels
