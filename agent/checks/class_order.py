"""Stage 2, class order: the training targets' per-batch streams read for data in target
order (single-class batches against what the class frequencies give by chance, target
means that rise or fall batch after batch)."""

from __future__ import annotations

from torch_investigate.tools.tracefile.trace import Trace


def data_means(t: Trace) -> list[float]:
    """The per-batch target means of the loss call that reads targets from the data, the
    longest such stream: a GAN's constant real and fake labels and a generator's target
    computed by the critic (which moves as the critic trains) are no order of the data."""
    means, sites = t.batches.target_means_per_batch, t.batches.target_mean_sites
    if not sites or len(sites) != len(means):
        return means  # an older trace: one stream
    made = {
        f"{c.frame.file}:{c.frame.line}"
        for c in t.train_loss_calls()
        if c.frame is not None and (c.target.made_in_code or c.target.from_model)
    }
    streams: dict[str, list[float]] = {}
    for m, site in zip(means, sites, strict=True):
        if site not in made:
            streams.setdefault(site, []).append(m)
    return max(streams.values(), key=len, default=[])


# Batches ordered by class: most of them (each such step then chases one class) hold a
# single class, far more than rows drawn at random from the class frequencies would
# give (p below CHANCE). Where the rows are not independent draws (a class per pixel or
# token) there is no chance model, and SINGLE_CLASS of the batches must be one class.
MOST = 0.5
CHANCE = 1e-6
SINGLE_CLASS = 0.75


def single_class_by_chance(
    hists: list[dict[str, int]], counts: dict[str, int] | None = None
) -> tuple[float, float] | None:
    """(expected single-class batches, probability of at least the observed number) when
    each batch's rows were drawn at random from the classes' overall frequencies (`counts`,
    rows per class; by default the histograms' own)."""
    if counts is None:
        counts = {}
        for h in hists:
            for k, v in h.items():
                counts[k] = counts.get(k, 0) + v
    total = sum(counts.values())
    if total <= 0:
        return None
    freqs = [v / total for v in counts.values()]
    probs = [min(1.0, sum(f ** sum(h.values()) for f in freqs)) for h in hists]
    # Poisson-binomial distribution of the number of single-class batches
    dist = [1.0]
    for p in probs:
        dist = [
            (dist[k] if k < len(dist) else 0.0) * (1 - p) + (dist[k - 1] * p if k else 0.0)
            for k in range(len(dist) + 1)
        ]
    single = sum(1 for h in hists if len(h) == 1)
    return sum(probs), min(1.0, sum(dist[single:]))


def classes(hists: list[dict[str, int]]) -> set[str]:
    overall: set[str] = set()
    for h in hists:
        overall.update(h)
    return overall


def class_runs(labels: list[str]) -> str:
    out: list[str] = []
    for lab in labels:
        if out and out[-1].split("×")[0] == lab:
            k = int(out[-1].split("×")[1]) + 1 if "×" in out[-1] else 2
            out[-1] = f"{lab}×{k}"
        else:
            out.append(lab)
    s = ", ".join(out[:8])
    return f"classes in order: {s}{', …' if len(out) > 8 else ''}"
