"""What lies around the user's repo, made visible beside each run copy: the copy is placed
under folders named like those above the original, and each level holds read-only links
to the original's neighbours there, so `../data` and `../../Datasets` resolve from the
copy as they do from the original. Under bwrap only, where the links are read-only; a run
without it could write through a link."""

from __future__ import annotations

from pathlib import Path

MAX_SURROUNDINGS = 500  # entries linked per level
LEVELS = 3  # the repo's own folder's neighbours and those of the two folders above it


def levels_above(origin: Path | None, isolation: str) -> list[str]:
    """The names of the folders above the original repo, outermost first, that a run copy
    is placed under: as many as keep the outermost folder linked at least two levels
    below the filesystem's root (`/tmp/work`, not `/tmp` or `/`)."""
    if origin is None or isolation != "bwrap":
        return []
    parents = origin.parents
    k = 0
    while k < LEVELS - 1 and k + 1 < len(parents) and len(parents[k + 1].parts) >= 3:
        k += 1
    return [parents[i].name for i in range(k)][::-1]


def top(origin: Path | None, isolation: str) -> Path | None:
    """The outermost original folder whose contents are linked (bound read-only into a
    private /tmp when it lies there); the repo's parent without bwrap."""
    if origin is None:
        return None
    return origin.parents[len(levels_above(origin, isolation))]


def link(origin: Path | None, isolation: str, run_dir: Path) -> None:
    """Links beside the run copy, and beside each folder above it, to what lies beside the
    original and beside each folder above it."""
    if origin is None or isolation != "bwrap":
        return
    on_path = [origin, *origin.parents]
    for level in range(len(levels_above(origin, isolation)) + 1):
        original, mirror = on_path[level + 1], run_dir.parents[level]
        try:
            entries = sorted(original.iterdir())[:MAX_SURROUNDINGS]
        except OSError:
            continue
        for entry in entries:
            if entry.name == on_path[level].name or (mirror / entry.name).exists():
                continue
            try:
                (mirror / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
            except OSError:
                continue
