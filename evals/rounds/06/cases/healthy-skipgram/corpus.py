"""Generate the synthetic topic corpus (one sentence per line)."""
import os
import random

N_TOPICS, PER_TOPIC, N_FUNCTION = 20, 25, 60


def vocab():
    content = [f"t{t:02d}w{i:02d}" for t in range(N_TOPICS) for i in range(PER_TOPIC)]
    function = [f"f{i:02d}" for i in range(N_FUNCTION)]
    return content, function


def main(path="corpus.txt", n_sentences=1200, seed=42):
    if os.path.exists(path):
        return
    rnd = random.Random(seed)
    content, function = vocab()
    fweights = [1.0 / (i + 1) for i in range(N_FUNCTION)]
    with open(path, "w") as f:
        for _ in range(n_sentences):
            t = rnd.randrange(N_TOPICS)
            words = []
            for _ in range(rnd.randint(8, 14)):
                if rnd.random() < 0.4:
                    # off-topic content words are common in real text too
                    tt = t if rnd.random() < 0.75 else rnd.randrange(N_TOPICS)
                    words.append(content[tt * PER_TOPIC + rnd.randrange(PER_TOPIC)])
                else:
                    words.append(rnd.choices(function, weights=fweights)[0])
            f.write(" ".join(words) + "\n")


if __name__ == "__main__":
    main()
