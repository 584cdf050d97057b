"""Tiny probabilistic grammar for CSS selectors, tokenised."""
import random

TAGS = ["div", "span", "a", "ul", "li", "nav", "button", "input", "section", "p", "img", "table", "tr", "td"]
CLASSES = ["active", "btn", "card", "header", "menu", "item", "hidden", "primary", "row", "col", "icon", "title"]
IDS = ["main", "footer", "sidebar", "app", "login", "search"]
PSEUDO = {"a": ["hover", "visited", "focus"], "button": ["hover", "disabled", "focus"],
          "input": ["focus", "checked", "disabled"], "li": ["first-child", "last-child", "nth-child(2n)"],
          "tr": ["nth-child(odd)", "nth-child(even)", "hover"]}
ATTRS = {"input": ["type=text", "type=checkbox", "name"], "a": ["href", "target=_blank"], "img": ["alt", "src"]}
# plausible parent -> child structure
CHILDREN = {"ul": ["li"], "nav": ["ul", "a"], "table": ["tr"], "tr": ["td"], "li": ["a", "span"],
            "section": ["div", "p"], "div": ["div", "span", "p", "button", "input", "img", "a"],
            "td": ["a", "span", "input"]}


def compound(rng, tag):
    toks = [tag]
    if rng.random() < 0.5:
        toks += [".", rng.choice(CLASSES)]
    if tag in ATTRS and rng.random() < 0.4:
        toks += ["[", rng.choice(ATTRS[tag]), "]"]
    if tag in PSEUDO and rng.random() < 0.5:
        toks += [":", rng.choice(PSEUDO[tag])]
    return toks


def selector(rng):
    toks = []
    if rng.random() < 0.3:
        toks += ["#", rng.choice(IDS), " "]
    tag = rng.choice(list(CHILDREN))
    toks += compound(rng, tag)
    for _ in range(rng.randint(0, 3)):
        if tag not in CHILDREN:
            break
        tag = rng.choice(CHILDREN[tag])
        toks += [rng.choice([">", " ", " "])] + compound(rng, tag)
    if rng.random() < 0.15:
        toks += [","] + selector(rng)[:-1]
    return toks + ["{"]


def corpus(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        out += selector(rng)
    return out
