"""`investigate seed PATH --category ID --out DIR`: one taxonomy category injected into a
copy of any repo. The input repo is only read; OUT must not exist or be empty."""

from __future__ import annotations

import sys
from pathlib import Path

from torch_investigate.evals.seeding.apply import SeedError, seed, seeded_files
from torch_investigate.evals.seeding.operators import REGISTRY
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.taxonomy import taxonomy

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def _fail(message: str) -> int:
    print(f"investigate seed: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def seed_repo(path: Path, category: str, out: Path) -> int:
    if not taxonomy().has_category(category):
        known = ", ".join(sorted(REGISTRY))
        return _fail(f"unknown category {category!r}; seedable: {known}")
    if category not in REGISTRY:
        return _fail(f"no operator seeds {category!r}")
    repo = Path(path).expanduser()
    if not repo.is_dir():
        return _fail(f"{repo} is not a folder")
    repo, target = repo.resolve(), Path(out).expanduser().resolve()
    if target == repo or repo in target.parents:
        return _fail(f"--out {out} is inside the input repo, which is never written")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        return _fail(f"--out {out} exists and is not empty")
    src = Source.load(repo)
    for mutation in REGISTRY[category].mutations(src):
        try:
            seeded_files(src, mutation)
        except SeedError:
            continue  # a mutation this repo's code cannot take: try the next
        truth = seed(src, category, mutation, target)
        print(f"seeded {category} (stage {truth.stage}) into {target}")
        print(f"  changed: {mutation.change}")
        print(f"  defect at {truth.file}:{truth.line} ({truth.symbol}), variant {mutation.variant}")
        return EXIT_OK
    return _fail(f"no applicable pattern for {category} in {repo}")
