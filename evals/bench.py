"""`investigate bench [SUITE] [--jobs N] [--json FILE]`: run the investigator on every
case of a generated suite, score it against the ground truth, and compare two
baselines run on the same cases: the investigator with `--static-only`, and TorchFix.

With no SUITE the full suite in evals/suite runs; `evals/suite/ci` is the small subset
CI runs. With --json, each run is cached next to FILE (`FILE-stem.cache/`), so an
interrupted benchmark resumes where it stopped.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from pydantic import ValidationError
from torch_investigate.evals.benchmark import scoring
from torch_investigate.evals.benchmark.records import BenchResult, CaseScore, Mode, Run
from torch_investigate.evals.benchmark.runner import Runner
from torch_investigate.evals.benchmark.table import render
from torch_investigate.evals.benchmark.torchfix import version as torchfix_version
from torch_investigate.evals.seeding.records import MANIFEST, Case, CleanControl, Manifest

DEFAULT_SUITE = Path(__file__).resolve().parent / "suite"
EXIT_OK, EXIT_BAD_INPUT = 0, 2


def _fail(message: str) -> int:
    print(f"investigate bench: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def cache_dir(json_out: Path | None) -> Path | None:
    return json_out.parent / f"{json_out.stem}.cache" if json_out is not None else None


def run_bench(suite: Path | None, *, jobs: int = 2, json_out: Path | None = None) -> int:
    suite = (suite or DEFAULT_SUITE).expanduser()
    if jobs < 1:
        return _fail("--jobs must be at least 1")
    if not (suite / MANIFEST).is_file():
        return _fail(
            f"{suite} holds no {MANIFEST} (generate one: python -m evals.seeding.generate)"
        )
    try:
        manifest = Manifest.load(suite)
    except (ValidationError, ValueError) as e:
        return _fail(f"{suite / MANIFEST} is not a suite manifest: {str(e).splitlines()[0]}")
    entries: list[Case | CleanControl] = [*manifest.cases, *manifest.controls]
    missing = [e.id for e in entries if not (suite / e.path).is_dir()]
    if missing:
        return _fail(f"case folders missing in {suite}: {', '.join(missing[:5])}")

    tf_version = torchfix_version()
    modes: list[Mode] = ["investigator", "static_only"] + (["torchfix"] if tf_version else [])
    runner = Runner(cache_dir(json_out))
    started = time.perf_counter()
    runs = _run_all(runner, suite, entries, modes, jobs)
    wall = round(time.perf_counter() - started, 1)

    scores = {m: [_score(e, runs[(m, e.id)]) for e in entries] for m in modes}
    result = BenchResult(
        suite=str(suite),
        command=f"investigate bench {suite} --jobs {jobs}"
        + (f" --json {json_out}" if json_out else ""),
        jobs=jobs,
        wall_s=wall,
        summary=scoring.summarize("investigator", scores["investigator"]),
        baselines={m: scoring.summarize(m, scores[m]) for m in modes if m != "investigator"},
        categories=scoring.category_rows(
            scores["investigator"], scores.get("static_only"), scores.get("torchfix")
        ),
        cases=scores["investigator"],
        baseline_cases={m: scores[m] for m in modes if m != "investigator"},
        torchfix=f"TorchFix {tf_version}, default rules" if tf_version else "not installed",
        investigator=investigator_version(),
    )
    render(result)
    print(f"wall time {wall:.0f} s with --jobs {jobs}", file=sys.stderr)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(result.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return EXIT_OK


def investigator_version() -> str:
    """The source the investigations import (`agent` as this process resolves it, which
    the subprocesses inherit), with its git commit and whether agent/ or tools/ differ."""
    from torch_investigate import agent

    root = Path(agent.__file__).resolve().parent.parent
    try:
        import git

        repo = git.Repo(root, search_parent_directories=False)
        dirty = bool(repo.index.diff(None, paths=["agent", "tools"]))
        return f"{root} at {repo.head.commit.hexsha[:7]}" + (
            " (agent/tools modified)" if dirty else ""
        )
    except Exception:  # noqa: BLE001 - a snapshot without git metadata
        return f"{root} (not a git work tree)"


def _score(entry: Case | CleanControl, run: Run) -> CaseScore:
    if isinstance(entry, Case):
        return scoring.score_buggy(entry, run)
    return scoring.score_clean(entry, run)


def _run_all(
    runner: Runner,
    suite: Path,
    entries: list[Case | CleanControl],
    modes: list[Mode],
    jobs: int,
) -> dict[tuple[Mode, str], Run]:
    runs: dict[tuple[Mode, str], Run] = {}
    total = len(entries) * len(modes)

    def note(n: int, mode: Mode, case_id: str, run: Run, cached: bool) -> None:
        took = "cached" if cached else f"{run.seconds:.1f} s"
        status = run.error or f"exit {run.exit_code}"
        print(f"[{n}/{total}] {mode:12s} {case_id:40s} {took:>8s} {status}", file=sys.stderr)

    n = 0
    if "torchfix" in modes:  # one quick batch first
        batch = runner.torchfix({e.id: suite / e.path for e in entries}, jobs)
        for case_id, (run, cached) in batch.items():
            n += 1
            runs[("torchfix", case_id)] = run
            note(n, "torchfix", case_id, run, cached)
    # The long investigations first, so the quick static-only runs fill the tail.
    tasks = [(m, e) for m in modes if m != "torchfix" for e in entries]
    with ThreadPoolExecutor(jobs) as pool:
        futures = {pool.submit(runner.run, m, e.id, suite / e.path): (m, e) for m, e in tasks}
        for future in as_completed(futures):
            mode, entry = futures[future]
            run, cached = future.result()
            runs[(mode, entry.id)] = run
            n += 1
            note(n, mode, entry.id, run, cached)
    return runs
