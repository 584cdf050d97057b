"""`investigate bench [SUITE] [--jobs N] [--json FILE] [--ray [ADDRESS]] [--model M ...]`:
run the investigator on every case of a generated suite, score it against the ground
truth, and compare two baselines run on the same cases: the investigator with
`--static-only`, and TorchFix. With `--model` the LLM policy (`--mode review|walk`) is
scored the same way, with the built-in planner as its baseline, and each case records
the tokens, requests, cost and stop reason of its run.

With no SUITE the full suite in evals/suite runs; `evals/suite/ci` is the small subset
CI runs. With --json, each run is cached next to FILE (`FILE-stem.cache/`), so an
interrupted benchmark resumes where it stopped. With --ray the investigations run as
Ray tasks (a new local instance, or the cluster at ADDRESS); the cache, the scoring and
TorchFix stay here.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import ValidationError

from torch_investigate.evals.benchmark import scoring
from torch_investigate.evals.benchmark.executors import Executor, ExecutorError, LocalExecutor
from torch_investigate.evals.benchmark.records import BenchResult, CaseScore, LLMSpec, Mode, Run
from torch_investigate.evals.benchmark.runner import Runner, case_job, label
from torch_investigate.evals.benchmark.table import render
from torch_investigate.evals.benchmark.torchfix import version as torchfix_version
from torch_investigate.evals.real.bench import is_real_suite, run_real_bench
from torch_investigate.evals.seeding.records import MANIFEST, Case, CleanControl, Manifest
from torch_investigate.tools.extras import install_hint

DEFAULT_SUITE = Path(__file__).resolve().parent / "suite"
EXIT_OK, EXIT_BAD_INPUT = 0, 2
RAY_MISSING = "--ray needs Ray, an optional extra: {}"


def _fail(message: str) -> int:
    print(f"investigate bench: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def cache_dir(json_out: Path | None) -> Path | None:
    return json_out.parent / f"{json_out.stem}.cache" if json_out is not None else None


class BenchError(Exception):
    """The benchmark cannot run as asked: one line for the user (exit 2)."""


def run_bench(
    suite: Path | None,
    *,
    jobs: int = 2,
    json_out: Path | None = None,
    ray: str | None = None,
    ray_cpus_per_case: float = 1.0,
    llm: LLMSpec | None = None,
    repos: Path | None = None,
    patch: bool = False,
) -> int:
    """`ray`: None runs here; "local" a new Ray instance of `jobs` CPUs; else the address
    of a running cluster (`auto`, `ray://host:10001`). `llm`: score that LLM policy
    instead of the planner (which becomes its baseline). `repos`: where the real-repo
    suite (evals/real) finds the fetched repos. `patch`: run `investigate fix` on every
    case and score its patches too (evals/benchmark/patches.py; no baselines).
    (`--rename`/`--restyle`: evals/rename.)"""
    suite = (suite or DEFAULT_SUITE).expanduser()
    if jobs < 1:
        return _fail("--jobs must be at least 1")
    if patch and llm is not None:
        return _fail("--patch scores the planner's `investigate fix` (no --model)")
    if is_real_suite(suite):
        if ray is not None or llm is not None:
            return _fail("the real-repo suite runs here with the planner (no --ray, no --model)")
        return run_real_bench(
            suite, repos, jobs=jobs, json_out=json_out, investigator=investigator_version(),
            patch=patch,
        )  # fmt: skip
    if repos is not None:
        return _fail("--repos is for the real-repo suite (evals/real)")
    try:
        result, _ = score_suite(
            suite, jobs=jobs, cache=cache_dir(json_out), json_out=json_out,
            ray=ray, ray_cpus_per_case=ray_cpus_per_case, llm=llm, patch=patch,
        )  # fmt: skip
    except BenchError as e:
        return _fail(str(e))
    render(result)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(result.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return EXIT_OK


def check_suite(suite: Path) -> list[Case | CleanControl]:
    """The suite's entries, after checking its manifest and case folders (BenchError)."""
    if not (suite / MANIFEST).is_file():
        raise BenchError(
            f"{suite} holds no {MANIFEST} (generate one: python -m evals.seeding.generate)"
        )
    try:
        manifest = Manifest.load(suite)
    except (ValidationError, ValueError) as e:
        raise BenchError(
            f"{suite / MANIFEST} is not a suite manifest: {str(e).splitlines()[0]}"
        ) from None
    entries: list[Case | CleanControl] = [*manifest.cases, *manifest.controls]
    missing = [e.id for e in entries if not (suite / e.path).is_dir()]
    if missing:
        raise BenchError(f"case folders missing in {suite}: {', '.join(missing[:5])}")
    return entries


def score_suite(
    suite: Path,
    *,
    jobs: int = 2,
    cache: Path | None = None,
    json_out: Path | None = None,
    ray: str | None = None,
    ray_cpus_per_case: float = 1.0,
    llm: LLMSpec | None = None,
    fallbacks: list[Path] | None = None,
    baselines: bool = True,
    patch: bool = False,
) -> tuple[BenchResult, dict[str, Run]]:
    """Run and score every case of `suite` (runs cached in `cache`; `fallbacks`: other
    caches whose runs of an unchanged case are reused): the result, and the main
    policy's run of each case by id. `baselines=False` runs the main policy alone (no
    static-only, TorchFix or planner baseline). Raises BenchError."""
    suite = suite.expanduser()
    if jobs < 1:
        raise BenchError("--jobs must be at least 1")
    if not ray_cpus_per_case > 0:
        raise BenchError("--ray-cpus-per-case must be positive")
    entries = check_suite(suite)
    if llm is not None and (problem := llm_problem(llm)):
        raise BenchError(problem)

    tf_version = torchfix_version() if llm is None and not patch and baselines else None
    main: Mode = "fix" if patch else ("investigator" if llm is None else "llm")
    modes: list[Mode] = (
        ["fix"]
        if patch
        else ["investigator", "static_only"] + (["torchfix"] if tf_version else [])
        if llm is None
        else ["llm", "investigator"]
    )
    if not baselines:
        modes = [main]
    runner = Runner(cache, llm, fallbacks=fallbacks)
    started = time.perf_counter()
    try:
        with open_executor(ray, jobs, ray_cpus_per_case) as executor:
            runs = _run_all(runner, suite, entries, modes, jobs, executor)
    except ExecutorError as e:
        raise BenchError(str(e)) from None
    wall = round(time.perf_counter() - started, 1)
    print(f"wall time {wall:.0f} s with {executor.description}", file=sys.stderr)

    scores = {m: [_score(e, runs[(m, e.id)]) for e in entries] for m in modes}
    patch_summary = (
        _score_patches(suite, entries, runs, scores["fix"], cache_dir(json_out), jobs)
        if patch
        else None
    )
    result = BenchResult(
        suite=str(suite),
        command=_command(suite, jobs, json_out, ray, ray_cpus_per_case, llm, patch),
        policy="planner" if llm is None else llm.policy,
        jobs=jobs,
        wall_s=wall,
        summary=scoring.summarize(main, scores[main], llm),
        baselines={m: scoring.summarize(m, scores[m]) for m in modes if m != main},
        categories=scoring.category_rows(
            scores[main],
            scores.get("static_only"),
            scores.get("torchfix"),
            scores.get("investigator") if llm is not None else None,
        ),  # fmt: skip
        cases=scores[main],
        baseline_cases={m: scores[m] for m in modes if m != main},
        torchfix=(
            f"TorchFix {tf_version}, default rules"
            if tf_version
            else (
                "not run (--model)"
                if llm is not None
                else "not run (--patch)"
                if patch
                else "not installed"
                if baselines
                else "not run"
            )
        ),
        investigator=investigator_version(),
        patches=patch_summary,
    )
    return result, {e.id: runs[(main, e.id)] for e in entries}


@contextmanager
def open_executor(ray: str | None, jobs: int, cpus_per_case: float) -> Iterator[Executor]:
    if ray is None:
        yield LocalExecutor(jobs)
        return
    try:
        from torch_investigate.evals.benchmark.ray_executor import connect
    except ImportError as e:
        if (e.name or "ray").split(".")[0] != "ray":
            raise
        raise ExecutorError(RAY_MISSING.format(install_hint("ray"))) from None
    with connect(ray, jobs, cpus_per_case) as executor:
        yield executor


def llm_problem(llm: LLMSpec) -> str | None:
    """Why the LLM policy cannot run as given (a bad bound, no key and no endpoint), checked
    once here before any case starts; None when it can."""
    from torch_investigate.agent.llm.errors import LLMConfigError
    from torch_investigate.agent.llm.options import LLMOptions

    try:
        LLMOptions(**llm.model_dump()).policy()
    except LLMConfigError as e:
        return e.message
    return None


def _command(
    suite: Path,
    jobs: int,
    json_out: Path | None,
    ray: str | None,
    cpus: float,
    llm: LLMSpec | None = None,
    patch: bool = False,
) -> str:
    words = [f"investigate bench {suite} --jobs {jobs}"]
    if llm is not None:  # the endpoint without credentials, as trajectories name it
        public = llm.model_copy(update={"base_url": _public_url(llm.base_url)})
        words.append(" ".join(shlex.quote(w) for w in public.argv()))
    if json_out is not None:
        words.append(f"--json {json_out}")
    if patch:
        words.append("--patch")
    if ray is not None:
        words.append("--ray" if ray == "local" else f"--ray {ray}")
        if cpus != 1:
            words.append(f"--ray-cpus-per-case {cpus:g}")
    return " ".join(words)


def _public_url(url: str | None) -> str | None:
    if url is None:
        return None
    from torch_investigate.agent.llm.settings import LLMSettings

    return LLMSettings(model="m", base_url=url).endpoint


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


def _score_patches(suite, entries, runs, scores, cache, jobs):
    """bench --patch: each case's patch score (the verified root-cause patches' metrics
    measured by a plain run of the patched case), and the suite's rates."""
    from torch_investigate.evals.benchmark import patches

    measured = []
    for entry, score in zip(entries, scores, strict=True):
        report = scoring.parse_report(runs[("fix", entry.id)])
        score.patch = patches.score_patch(entry, report)
        if isinstance(entry, Case) and report is not None:
            measured.append((entry, report, score.patch))
    patches.measure_matches(suite, measured, cache, jobs)
    return patches.summarize((s.kind, s.patch) for s in scores if s.patch is not None)


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
    executor: Executor,
) -> dict[tuple[Mode, str], Run]:
    runs: dict[tuple[Mode, str], Run] = {}
    total = len(entries) * len(modes)

    def note(run: Run, cached: bool) -> None:
        runs[(run.mode, run.case_id)] = run
        took = "cached" if cached else f"{run.seconds:.1f} s"
        status = run.error or f"exit {run.exit_code}"
        name = label(run.mode, runner.llm)
        print(
            f"[{len(runs)}/{total}] {name:12s} {run.case_id:40s} {took:>8s} {status}",
            file=sys.stderr,
        )

    if "torchfix" in modes:  # one quick batch first, here
        for run, cached in runner.torchfix({e.id: suite / e.path for e in entries}, jobs).values():
            note(run, cached)
    # The long investigations first, so the quick static-only runs fill the tail.
    todo = []
    for mode in (m for m in modes if m != "torchfix"):
        for entry in entries:
            job = case_job(mode, entry.id, suite / entry.path, llm=runner.llm)
            cached = runner.cached(mode, entry.id, job.key)
            if cached is not None:
                note(cached, True)
            else:
                todo.append(job)
    for run in executor.run(todo):
        runner.save(run)
        note(run, False)
    return runs
