"""Generate the benchmark suite: seeded copies of the clean templates, verified to
change behaviour, plus the clean templates as controls.

    python -m evals.seeding.generate                  # writes evals/suite (an hour cold, a minute cached)
    python -m evals.seeding.generate --check          # the committed suite is reproduced

For every category, templates are tried in a rotating order; in each template the
operator's mutations are tried (spellings rotated so templates do not all get the
same one) until one really changes the run: a silent category must move the metric,
a loud one may crash. At most `--per-category` templates are kept per category.
Verification runs are cached by the content of the seeded files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from torch_investigate.evals.seeding.apply import copy_repo, repo_files, seed
from torch_investigate.evals.seeding.operators import REGISTRY, Mutation
from torch_investigate.evals.seeding.records import (
    Case,
    CleanControl,
    Manifest,
    MetricRun,
    Template,
)
from torch_investigate.evals.seeding.source import Source
from torch_investigate.evals.seeding.verify import effect, run_metric
from torch_investigate.tools.taxonomy import taxonomy

EVALS = Path(__file__).resolve().parent.parent
REPOS = EVALS / "repos"
SUITE = EVALS / "suite"
CASES = "cases"
CI_SUITE = "ci"
CACHE = Path.home() / ".cache" / "torch-investigate" / "seeding"
NOT_IN_CASE = frozenset({"template.json"})  # the case is a user's repo: no answer key
MAX_TRIES = 4
PER_CATEGORY = 4

# The CI subset: the first three of these that the suite holds, and one clean control.
CI_PREFERENCE = (
    "miniloop-step_order",
    "rings-loss_args_swapped",
    "miniloop-broadcast_mismatch",
    "flat_script-missing_zero_grad",
    "miniloop-optimizer_missing_params",
)
CI_CONTROL = "clean-miniloop"


@dataclass
class Tried:
    template: str
    category: str
    mutation: Mutation
    run: MetricRun
    effect: str


def templates() -> list[Path]:
    return sorted(p for p in REPOS.iterdir() if (p / "template.json").is_file())


def ordered(mutations: list[Mutation], turn: int) -> list[Mutation]:
    """Mutations grouped by spelling, the spellings rotated by `turn`."""
    spellings = list(dict.fromkeys(m.spelling for m in mutations))
    if not spellings:
        return []
    k = turn % len(spellings)
    rotated = spellings[k:] + spellings[:k]
    return [m for s in rotated for m in mutations if m.spelling == s]


class Generator:
    def __init__(self, jobs: int, per_category: int, cache: Path | None) -> None:
        self.jobs = jobs
        self.per_category = per_category
        self.cache = cache
        self.folders = templates()
        self.specs = {p.name: Template.load(p) for p in self.folders}
        self.sources = {p.name: Source.load(p) for p in self.folders}
        self.healthy: dict[str, MetricRun] = {}
        self.dropped: dict[str, str] = {}
        self._lock = threading.Lock()

    def log(self, message: str) -> None:
        with self._lock:
            print(message, file=sys.stderr, flush=True)

    # ---- verification ---------------------------------------------------------------

    def measure(self, folder: Path, template: Template) -> MetricRun:
        key = _content_key(folder, template)
        path = self.cache / f"{key}.json" if self.cache else None
        if path is not None and path.is_file():
            try:
                cached = MetricRun.model_validate_json(path.read_text())
            except ValueError:
                cached = None  # a half-written entry: measure again
            # a clean exit without a value is an entry from before non-finite values
            # were written as strings: measure again
            if cached is not None and not (cached.value is None and cached.returncode == 0):
                return cached
        run = run_metric(folder, template)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{threading.get_ident()}.tmp")
            tmp.write_text(run.model_dump_json())
            tmp.replace(path)
        return run

    def measure_healthy(self) -> None:
        def one(p: Path) -> tuple[str, MetricRun]:
            return p.name, self.measure(p, self.specs[p.name])

        with ThreadPoolExecutor(self.jobs) as pool:
            self.healthy = dict(pool.map(one, self.folders))
        for name, run in self.healthy.items():
            self.log(f"healthy {name}: {run.value}")

    # ---- one category ---------------------------------------------------------------

    def category(self, index: int, category: str) -> list[Tried]:
        loud = taxonomy().category(category).loud
        names = [p.name for p in self.folders]
        rotated = names[index % len(names) :] + names[: index % len(names)]
        kept: list[Tried] = []
        for turn, name in enumerate(rotated):
            if len(kept) >= self.per_category:
                break
            mutations = REGISTRY[category].mutations(self.sources[name])
            equivalent_failed: set[tuple[str, str]] = set()
            tries = 0
            for m in ordered(mutations, turn + index):
                if tries >= MAX_TRIES:
                    break
                if m.same_as and (m.same_as, m.site) in equivalent_failed:
                    continue  # another spelling of a change that did nothing here
                tries += 1
                tried = self.try_one(name, category, m)
                self.log(
                    f"{category:28s} {name:17s} {m.variant:60s} {tried.effect} {tried.run.value}"
                )
                if _keeps(loud, tried.effect):
                    kept.append(tried)
                    break
                why = tried.effect + (f": {tried.run.error}" if tried.run.error else "")
                self.dropped[f"{name}/{category}/{m.variant}"] = why
                if m.same_as:
                    equivalent_failed.add((m.same_as, m.site))
        return kept

    def try_one(self, name: str, category: str, m: Mutation) -> Tried:
        with tempfile.TemporaryDirectory(prefix="ti-seed-") as tmp:
            out = Path(tmp) / name
            try:
                seed(self.sources[name], category, m, out)
            except ValueError as e:
                return Tried(name, category, m, MetricRun(error=str(e)), "crash")
            run = self.measure(out, self.specs[name])
        spec = self.specs[name]
        return Tried(name, category, m, run, effect(spec, self.healthy[name].value, run))

    # ---- the suite ------------------------------------------------------------------

    def run(self, categories: list[str]) -> list[Tried]:
        self.measure_healthy()
        with ThreadPoolExecutor(self.jobs) as pool:
            futures = [pool.submit(self.category, i, c) for i, c in enumerate(categories)]
            return [t for f in futures for t in f.result()]

    def write(self, suite: Path, kept: list[Tried], categories: list[str]) -> Manifest:
        cases_dir = suite / CASES
        if cases_dir.exists():
            shutil.rmtree(cases_dir)
        cases_dir.mkdir(parents=True)
        manifest = Manifest(dropped=dict(sorted(self.dropped.items())))
        by_stage = sorted(
            kept, key=lambda t: (taxonomy().category(t.category).stage, t.category, t.template)
        )
        for t in by_stage:
            category = t.category
            case_id = f"{t.template}-{category}"
            out = cases_dir / case_id
            truth = seed(self.sources[t.template], category, t.mutation, out)
            _strip(out)
            spec = self.specs[t.template]
            manifest.cases.append(
                Case(
                    id=case_id,
                    path=f"{CASES}/{case_id}",
                    template=t.template,
                    category=category,
                    stage=truth.stage,
                    loud=taxonomy().category(category).loud,
                    variant=t.mutation.variant,
                    change=t.mutation.change,
                    truth=truth,
                    metric=spec.metric,
                    direction=spec.direction,
                    healthy_metric=self.healthy[t.template].value,
                    buggy_metric=t.run.value,
                    effect=t.effect,  # type: ignore[arg-type]
                )
            )
        for folder in self.folders:
            spec = self.specs[folder.name]
            control_id = f"clean-{folder.name}"
            out = cases_dir / control_id
            copy_repo(folder, out)
            _strip(out)
            manifest.controls.append(
                CleanControl(
                    id=control_id,
                    path=f"{CASES}/{control_id}",
                    template=folder.name,
                    metric=spec.metric,
                    direction=spec.direction,
                    healthy_metric=self.healthy[folder.name].value,
                )
            )
        covered = {c.category for c in manifest.cases}
        manifest.not_seeded.update(not_seeded(covered, categories, self.dropped))
        manifest.write(suite)
        write_ci(suite, manifest)
        return manifest


def _keeps(loud: bool, effect: str) -> bool:
    """A seeding is kept when it changed the run: its metric moved beyond the margin
    (either way: leakage, or sigmoid-squashed logits on an easy task, score higher), or,
    for a loud category, it crashed."""
    return effect in ("degraded", "changed", "improved") or (loud and effect == "crash")


def _strip(out: Path) -> None:
    for name in NOT_IN_CASE:
        (out / name).unlink(missing_ok=True)


def not_seeded(covered: set[str], tried: list[str], dropped: dict) -> dict[str, str]:
    """Why each taxonomy category without a case has none: its spec says no template can
    seed it, or the seedings tried (`dropped`, keyed `template/category/...`) changed no run."""
    out: dict[str, str] = {}
    for c in taxonomy().categories:
        if c.id in covered:
            continue
        if c.not_seedable:
            out[c.id] = c.not_seedable
        elif c.id in tried:
            n = len([k for k in dropped if f"/{c.id}/" in k])
            out[c.id] = (
                f"{n} seedings applied, none changed a run" if n
                else "no applicable pattern in the templates"
            )  # fmt: skip
    return out


def write_ci(suite: Path, manifest: Manifest) -> None:
    ids = {c.id for c in manifest.cases}
    chosen = [i for i in CI_PREFERENCE if i in ids][:3]
    ci = Manifest(
        generated_by=manifest.generated_by + " (the CI subset)",
        cases=[
            c.model_copy(update={"path": f"../{c.path}"}) for c in manifest.cases if c.id in chosen
        ],
        controls=[
            c.model_copy(update={"path": f"../{c.path}"})
            for c in manifest.controls
            if c.id == CI_CONTROL
        ],
    )
    (suite / CI_SUITE).mkdir(exist_ok=True)
    ci.write(suite / CI_SUITE)


def _content_key(folder: Path, template: Template) -> str:
    digest = hashlib.sha256(json.dumps(template.command).encode())
    for name in repo_files(folder):
        if name in NOT_IN_CASE:
            continue
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
    return digest.hexdigest()[:32]


# ---- reproduction check ----------------------------------------------------------------


def check(suite: Path) -> list[str]:
    """Differences between the committed suite and a fresh application of its variants
    (no verification runs): empty when the transforms reproduce it exactly."""
    manifest = Manifest.load(suite)
    sources = {p.name: Source.load(p) for p in templates()}
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ti-check-") as tmp:
        for case in manifest.cases:
            found = [
                m for m in REGISTRY[case.category].mutations(sources[case.template])
                if m.variant == case.variant
            ]  # fmt: skip
            if not found:
                problems.append(f"{case.id}: variant {case.variant} no longer applies")
                continue
            out = Path(tmp) / case.id
            truth = seed(sources[case.template], case.category, found[0], out)
            _strip(out)
            if truth != case.truth:
                problems.append(f"{case.id}: ground truth {truth} != {case.truth}")
            problems += _diff(out, suite / case.path, case.id)
        for control in manifest.controls:
            problems += _diff(
                REPOS / control.template, suite / control.path, control.id, NOT_IN_CASE
            )
    return problems


def _diff(
    expected: Path, actual: Path, label: str, skip: frozenset[str] = frozenset()
) -> Iterator[str]:
    want = {n for n in repo_files(expected) if n not in skip}
    have = set(_files(actual))
    for name in sorted(want ^ have):
        yield f"{label}: {name} only in {'the regenerated copy' if name in want else 'the suite'}"
    for name in sorted(want & have):
        if (expected / name).read_bytes() != (actual / name).read_bytes():
            yield f"{label}: {name} differs"


def _files(folder: Path) -> list[str]:
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.seeding.generate", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--out", type=Path, default=SUITE)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--per-category", type=int, default=PER_CATEGORY)
    parser.add_argument("--only", nargs="*", help="categories to seed (default: all)")
    parser.add_argument("--no-cache", action="store_true", help="re-run every verification")
    parser.add_argument("--check", action="store_true", help="check the suite reproduces")
    args = parser.parse_args(argv)
    if args.check:
        problems = check(args.out)
        for p in problems:
            print(p)
        print(f"{len(problems)} difference(s)")
        return 1 if problems else 0
    categories = [c.id for c in taxonomy().categories if c.id in REGISTRY]
    if args.only:
        categories = [c for c in categories if c in args.only]
    gen = Generator(args.jobs, args.per_category, None if args.no_cache else CACHE)
    kept = gen.run(categories)
    manifest = gen.write(args.out, kept, categories)
    print(
        f"{len(manifest.cases)} cases in {len(manifest.categories)} categories, "
        f"{len(manifest.controls)} clean controls -> {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
