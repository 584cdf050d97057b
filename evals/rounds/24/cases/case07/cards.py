"""Write synthetic recipe cards: each cuisine prefers some ingredient words, many
words are shared across cuisines, and every card has pantry filler words."""
import argparse
import json
import random

CUISINES = ["mexican", "thai", "italian", "indian", "japanese", "greek", "ethiopian",
            "korean", "french", "peruvian", "moroccan", "vietnamese"]
SHARED = ["salt", "pepper", "onion", "garlic", "oil", "water", "sugar", "flour", "egg",
          "butter", "rice", "chicken", "beef", "tomato", "lemon", "stock", "bake", "fry",
          "simmer", "chop", "stir", "boil", "slice", "mix"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="cards.json")
    ap.add_argument("--n", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    signature = {c: [f"{c[:3]}_{i}" for i in range(10)] for c in CUISINES}
    # neighbouring cuisines borrow each other's signature words
    cards = []
    for _ in range(args.n):
        c = rnd.randrange(len(CUISINES))
        own = signature[CUISINES[c]]
        other = signature[CUISINES[(c + rnd.choice([1, -1])) % len(CUISINES)]]
        words = rnd.sample(own, 2) + rnd.sample(other, 1) + rnd.choices(SHARED, k=rnd.randint(6, 12))
        rnd.shuffle(words)
        cards.append({"cuisine": CUISINES[c], "text": " ".join(words)})
    with open(args.out, "w") as f:
        json.dump({"cuisines": CUISINES, "cards": cards}, f)
    print(f"wrote {len(cards)} cards to {args.out}")


if __name__ == "__main__":
    main()
