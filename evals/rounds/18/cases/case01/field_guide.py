"""Synthetic field-guide records.

Every specimen has a handful of categorical traits. Edibility follows a noisy
rule-of-thumb (foul/spicy odour, green spore print, ring type...), so a model that
reads the traits can get well above 90%.
"""
import numpy as np

TRAITS = {
    "cap_shape": ["bell", "conical", "convex", "flat", "knobbed", "sunken"],
    "cap_color": ["brown", "buff", "cinnamon", "gray", "green", "pink", "purple", "red", "white", "yellow"],
    "odor": ["almond", "anise", "creosote", "fishy", "foul", "musty", "none", "pungent", "spicy"],
    "gill_size": ["broad", "narrow"],
    "gill_color": ["black", "brown", "buff", "chocolate", "gray", "green", "orange", "pink", "purple", "red", "white", "yellow"],
    "stalk_root": ["bulbous", "club", "cup", "equal", "rhizomorphs", "rooted", "missing"],
    "ring_type": ["cobwebby", "evanescent", "flaring", "large", "none", "pendant", "sheathing", "zone"],
    "spore_print": ["black", "brown", "buff", "chocolate", "green", "orange", "purple", "white", "yellow"],
    "population": ["abundant", "clustered", "numerous", "scattered", "several", "solitary"],
    "habitat": ["grasses", "leaves", "meadows", "paths", "urban", "waste", "woods"],
}

_BAD_ODOR = {"creosote", "fishy", "foul", "musty", "pungent", "spicy"}


def _is_edible(rec, rng):
    score = 0.0
    score -= 3.0 if rec["odor"] in _BAD_ODOR else 0.0
    score += 1.5 if rec["odor"] in ("almond", "anise") else 0.0
    score -= 2.5 if rec["spore_print"] in ("green", "chocolate") else 0.0
    score -= 1.0 if rec["ring_type"] in ("large", "none") else 0.0
    score += 0.8 if rec["gill_size"] == "broad" else -0.4
    score -= 1.2 if rec["stalk_root"] == "bulbous" and rec["gill_color"] == "buff" else 0.0
    score += 0.6 if rec["cap_color"] in ("brown", "white") else 0.0
    return int(score + rng.normal(0, 0.35) > -0.5)


def make_records(n, seed=0):
    rng = np.random.default_rng(seed)
    recs = []
    for i in range(n):
        rec = {k: v[rng.integers(len(v))] for k, v in TRAITS.items()}
        rec["specimen_id"] = f"S{i:05d}"
        rec["edible"] = _is_edible(rec, rng)
        recs.append(rec)
    return recs
