"""`investigate bench evals/real --repos DIR`: the real-repo suite, scored like any suite.

Every entry of `manifest.yaml` whose repo is present under DIR (as `fetch` leaves it, or
a clone) is materialized at its pinned commit, healthy and once per seed
(`materialize.py`), and investigated as a user would: `investigate FOLDER --cmd COMMAND`,
the entry's CPU-sized command. The healthy copy also runs once plainly, so each
investigation's time can be set against one plain run of the same command. Healthy
copies are scored as clean controls (no confirmed finding, no root cause), seeds as
buggy cases (category, file, symbol). Entries whose repo is missing are listed, not
scored. With --json, runs are cached next to the file under a key of everything that
makes the copy (the entry, the seed, our data scripts and stand-ins) and the
investigator's source, so a resumed benchmark reruns only what changed; the plain runs
under a key of the copy alone (they do not depend on the investigator).
"""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from statistics import median

from pydantic import BaseModel, Field

from torch_investigate.evals.benchmark import patches, scoring
from torch_investigate.evals.benchmark.patch_records import PatchScore, PatchSummary
from torch_investigate.evals.benchmark.records import BenchResult, CaseScore, Run
from torch_investigate.evals.benchmark.runner import CASE_TIMEOUT_S, REPORTING_EXITS
from torch_investigate.evals.benchmark.table import render
from torch_investigate.evals.real.materialize import (
    HERE,
    MaterializeError,
    RealManifest,
    RealRepo,
    Seed,
    find_git_dir,
    materialize,
    run_plain,
)
from torch_investigate.evals.seeding.records import Case, CleanControl, GroundTruth
from torch_investigate.tools.records import Report

REAL_MANIFEST = "manifest.yaml"
# a real repo's investigation runs its command for up to three traced runs at once; its
# plain run may take minutes
REAL_CASE_TIMEOUT_S = 3 * CASE_TIMEOUT_S


class Timing(BaseModel):
    """One entry's plain run beside its healthy investigation."""

    entry: str
    plain_s: float | None  # None: the plain run failed or was not made
    investigation_s: float | None
    ratio: float | None = None  # investigation / plain


class RealResult(BaseModel):
    """What `bench evals/real` adds to a suite's result."""

    bench: BenchResult
    repos_dir: str
    missing: dict[str, str] = Field(default_factory=dict)  # entry -> why it was not run
    healthy_runs: int = 0
    healthy_confirmed: int = 0  # healthy runs with any confirmed finding
    healthy_root_cause: int = 0  # healthy runs that name a root cause
    healthy_inconclusive: int = 0
    timings: list[Timing] = Field(default_factory=list)
    median_ratio: float | None = None


def is_real_suite(suite: Path) -> bool:
    return (suite / REAL_MANIFEST).is_file()


def _key(repo: RealRepo, seed: Seed | None, investigator: str) -> str:
    """Everything that makes the copy, and the investigator's source."""
    h = hashlib.sha256(repo.model_dump_json(exclude={"seeds"}).encode())
    h.update((seed.model_dump_json() if seed else "healthy").encode())
    for rel in [repo.data] if repo.data else []:
        h.update((HERE / rel).read_bytes())
    if repo.data:
        helper = HERE / "data" / "_synth.py"
        if helper.is_file():
            h.update(helper.read_bytes())
    for name in repo.standins:
        for path in sorted((HERE / "standins" / name).rglob("*.py")):
            h.update(path.read_bytes())
    h.update(investigator.encode())
    return h.hexdigest()[:32]


def _command(repo: RealRepo) -> str:
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in repo.env.items())
    return f"{env} {repo.command}".strip()


def _investigate(case_id: str, folder: Path, repo: RealRepo, key: str, *, patch: bool) -> Run:
    """`investigate FOLDER` as a user runs it (`investigate fix FOLDER` with patch)."""
    argv = [sys.executable, "-m", "torch_investigate.agent.cli", *(["fix"] if patch else [])]
    argv += [str(folder), "-f", "json", "-q", "--cmd", _command(repo)]
    started = time.perf_counter()
    try:
        done = subprocess.run(
            argv, cwd=folder, capture_output=True, text=True, timeout=REAL_CASE_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        seconds = round(time.perf_counter() - started, 2)
        return Run(mode="investigator", case_id=case_id, key=key, exit_code=None,
                   seconds=seconds, error=f"timed out after {REAL_CASE_TIMEOUT_S:g} s")  # fmt: skip
    seconds = round(time.perf_counter() - started, 2)
    run = Run(mode="fix" if patch else "investigator", case_id=case_id, key=key,
              exit_code=done.returncode, seconds=seconds)  # fmt: skip
    if done.returncode in REPORTING_EXITS:
        try:
            run.report = json.loads(done.stdout)
        except json.JSONDecodeError:
            run.error = "the report is not JSON"
    else:
        run.error = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1][:300]
    return run


class _Job(BaseModel):
    entry: Case | CleanControl
    repo: RealRepo
    seed: Seed | None
    key: str


def run_real_bench(
    suite: Path,
    repos_dir: Path | None,
    *,
    jobs: int,
    json_out: Path | None,
    investigator: str,
    patch: bool = False,
) -> int:
    """`patch`: each entry through `investigate fix`, its patches scored beside the
    findings (a verified root-cause patch of a seed also runs plainly, patched, to see
    whether it wins the seed's metric back)."""
    if repos_dir is None:
        print(
            f"investigate bench: error: {suite} is the real-repo suite: pass --repos DIR, the "
            "folder holding the fetched repos (see evals/real/README.md)",
            file=sys.stderr,
        )
        return 2
    if not repos_dir.is_dir():
        print(f"investigate bench: error: --repos {repos_dir} is not a folder", file=sys.stderr)
        return 2
    manifest = RealManifest.load(suite / REAL_MANIFEST)
    result_missing: dict[str, str] = {}
    todo: list[_Job] = []
    investigator = f"{investigator}+fix" if patch else investigator
    for repo in manifest.repos:
        if find_git_dir(repos_dir, repo.source) is None:
            result_missing[repo.id] = f"{repo.source} is not under {repos_dir}"
            continue
        control = CleanControl(id=repo.id, path=repo.folder or ".", template=repo.id,
                               metric=repo.metric.name, direction=repo.metric.direction,
                               healthy_metric=repo.healthy_metric)  # fmt: skip
        todo.append(_Job(entry=control, repo=repo, seed=None, key=_key(repo, None, investigator)))
        for seed in repo.seeds:
            case = Case(
                id=seed.id, path=repo.folder or ".", template=repo.id, category=seed.category,
                stage=seed.stage, loud=False, variant=repo.style, change=seed.note or "",
                truth=GroundTruth(category=seed.category, stage=seed.stage, **seed.truth.model_dump()),
                alternatives=[GroundTruth(category=seed.category, stage=seed.stage, **a.model_dump())
                              for a in seed.alternatives],
                metric=repo.metric.name, direction=repo.metric.direction,
                healthy_metric=repo.healthy_metric, buggy_metric=seed.buggy_metric,
                effect=seed.effect,
            )  # fmt: skip
            todo.append(_Job(entry=case, repo=repo, seed=seed, key=_key(repo, seed, investigator)))
    for entry, why in result_missing.items():
        print(f"[missing] {entry}: {why}", file=sys.stderr)

    cache = json_out.parent / f"{json_out.stem}.cache" / "real" if json_out else None
    if cache is not None and patch:
        cache = cache.with_name("real-fix")
    runs: dict[str, Run] = {}
    plains: dict[str, float | None] = {}
    started = time.perf_counter()

    def one(job: _Job) -> None:
        path = cache / f"{job.entry.id}.json" if cache else None
        if path is not None and path.is_file():
            saved = json.loads(path.read_text())
            if saved.get("run", {}).get("key") == job.key:
                runs[job.entry.id] = Run.model_validate(saved["run"])
                if job.seed is None:
                    plains[job.entry.id] = saved.get("plain_s")
                _note(len(runs), len(todo), runs[job.entry.id], cached=True)
                return
        plain_s = None
        # one plain run of the command does not depend on the investigator: kept apart, under
        # a key of the copy alone, so a new commit reruns only the investigations
        plain_path = cache.parent / "plain" / f"{job.entry.id}.json" if cache else None
        plain_key = _key(job.repo, None, "plain")
        healthy_known = job.seed is None and plain_path is not None and plain_path.is_file()
        known = json.loads(plain_path.read_text()) if healthy_known else {}
        have_plain = known.get("key") == plain_key
        if have_plain:
            plain_s = known.get("plain_s")
        with tempfile.TemporaryDirectory(prefix="ti-real-") as tmp:
            try:
                folder = materialize(job.repo, job.seed, repos_dir, Path(tmp) / "repo")
            except MaterializeError as e:
                run = Run(mode="investigator", case_id=job.entry.id, key=job.key,
                          exit_code=None, seconds=0.0, error=f"materialize: {e}"[:300])  # fmt: skip
            else:
                if job.seed is None and not have_plain:
                    plain = run_plain(job.repo, folder)
                    plain_s = plain.seconds if plain.returncode == 0 else None
                    folder = materialize(job.repo, None, repos_dir, Path(tmp) / "repo")
                    if plain_path is not None:
                        plain_path.parent.mkdir(parents=True, exist_ok=True)
                        plain_path.write_text(json.dumps({"key": plain_key, "plain_s": plain_s}))
                run = _investigate(job.entry.id, folder, job.repo, job.key, patch=patch)
        if run.report is not None:
            run.report["repo"] = f"{job.repo.source}@{job.repo.commit[:12]}/{job.repo.folder}"
        runs[job.entry.id] = run
        if job.seed is None:
            plains[job.entry.id] = plain_s
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"run": run.model_dump(), "plain_s": plain_s}))
        _note(len(runs), len(todo), run, cached=False)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, todo))
    wall = round(time.perf_counter() - started, 1)

    scores = [_score(job.entry, runs[job.entry.id]) for job in todo]
    summary = _score_patches(todo, runs, scores, repos_dir, cache, jobs) if patch else None
    bench = BenchResult(
        suite=str(suite),
        command=f"investigate bench {suite} --repos {repos_dir} --jobs {jobs}"
        + (" --patch" if patch else ""),
        jobs=jobs, wall_s=wall, summary=scoring.summarize("investigator", scores),
        categories=scoring.category_rows(scores, None, None, None), cases=scores,
        investigator=investigator, patches=summary,
    )  # fmt: skip
    result = _real_result(bench, repos_dir, result_missing, todo, runs, plains)
    render(bench)
    _render_real(result)
    print(f"wall time {wall:.0f} s with {jobs} job(s)", file=sys.stderr)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(result.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return 0


def _score_patches(
    todo: list[_Job],
    runs: dict[str, Run],
    scores: list[CaseScore],
    repos_dir: Path,
    cache: Path | None,
    jobs: int,
) -> PatchSummary:
    """Each entry's patch score; a seed's verified root-cause patch is applied to a fresh
    copy and the command run plainly, as the seed's metric was measured."""
    measure: list[tuple[_Job, Report, PatchScore]] = []
    for job, score in zip(todo, scores, strict=True):
        raw = runs[job.entry.id].report
        report = Report.model_validate(raw) if raw else None
        score.patch = patches.score_patch(job.entry, report)
        if job.seed is not None and report is not None and score.patch.verified:
            measure.append((job, report, score.patch))

    def one(item: tuple[_Job, Report, PatchScore]) -> None:
        job, report, score = item
        diff = next(p.diff for p in report.patches if p.finding == report.root_cause)
        value, error = _patched_metric(job, diff, repos_dir, cache)
        score.metric, score.metric_error = value, error
        assert isinstance(job.entry, Case)
        score.matches = patches.matches(job.entry, value) if not error else None

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, measure))
    return patches.summarize((s.kind, s.patch) for s in scores if s.patch is not None)


def _patched_metric(
    job: _Job, diff: str, repos_dir: Path, cache: Path | None
) -> tuple[float | None, str]:
    """The seed's metric from one plain run of its copy with `diff` applied (cached by
    the copy and the diff)."""
    key = hashlib.sha256(f"{job.key}\0{diff}".encode()).hexdigest()[:24]
    path = cache / "patch-metric" / f"{job.entry.id}.json" if cache is not None else None
    if path is not None and path.is_file():
        saved = json.loads(path.read_text())
        if saved.get("key") == key:
            return saved.get("value"), saved.get("error", "")
    with tempfile.TemporaryDirectory(prefix="ti-real-patch-") as tmp:
        folder = materialize(job.repo, job.seed, repos_dir, Path(tmp) / "repo")
        applied = subprocess.run(
            ["git", "apply", "--unsafe-paths", "-"], input=diff, cwd=folder,
            capture_output=True, text=True,
        )  # fmt: skip
        if applied.returncode != 0:
            value, error = None, f"git apply: {applied.stderr.strip()[:200]}"
        else:
            plain = run_plain(job.repo, folder)
            value = plain.metric
            error = "" if plain.returncode == 0 else f"exit {plain.returncode}: {plain.tail[-200:]}"
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"key": key, "value": value, "error": error}))
    return value, error


def _score(entry: Case | CleanControl, run: Run) -> CaseScore:
    if isinstance(entry, Case):
        return scoring.score_buggy(entry, run)
    return scoring.score_clean(entry, run)


def _note(done: int, total: int, run: Run, *, cached: bool) -> None:
    took = "cached" if cached else f"{run.seconds:.1f} s"
    status = run.error or f"exit {run.exit_code}"
    print(f"[{done}/{total}] {run.case_id:44s} {took:>8s} {status}", file=sys.stderr)


def _real_result(
    bench: BenchResult,
    repos_dir: Path,
    missing: dict[str, str],
    todo: list[_Job],
    runs: dict[str, Run],
    plains: dict[str, float | None],
) -> RealResult:
    result = RealResult(bench=bench, repos_dir=str(repos_dir), missing=missing)
    for job in todo:
        if job.seed is not None:
            continue
        run = runs[job.entry.id]
        report = run.report or {}
        result.healthy_runs += 1
        confirmed = [f for f in report.get("findings", []) if f.get("status") == "confirmed"]
        result.healthy_confirmed += bool(confirmed)
        result.healthy_root_cause += bool(report.get("root_cause"))
        result.healthy_inconclusive += report.get("conclusion") == "inconclusive" or not report
        plain = plains.get(job.entry.id)
        took = run.seconds if run.report is not None else None
        ratio = round(took / plain, 2) if took and plain else None
        result.timings.append(Timing(entry=job.entry.id, plain_s=plain, investigation_s=took,
                                     ratio=ratio))  # fmt: skip
    ratios = [t.ratio for t in result.timings if t.ratio is not None]
    result.median_ratio = round(median(ratios), 2) if ratios else None
    return result


def _render_real(r: RealResult) -> None:
    n = r.healthy_runs
    print(
        f"\nhealthy runs: {n}; with a confirmed finding: {r.healthy_confirmed}; naming a root "
        f"cause: {r.healthy_root_cause}; inconclusive: {r.healthy_inconclusive}"
        + (f" ({100 * r.healthy_inconclusive / n:.0f}%)" if n else "")
    )
    print("time per investigation vs one plain run of the same command:")
    for t in r.timings:
        plain = f"{t.plain_s:.1f} s" if t.plain_s is not None else "failed"
        took = f"{t.investigation_s:.1f} s" if t.investigation_s is not None else "-"
        ratio = f"{t.ratio:.2f}x" if t.ratio is not None else "-"
        print(f"  {t.entry:36s} plain {plain:>9s}  investigation {took:>9s}  {ratio:>7s}")
    if r.median_ratio is not None:
        print(f"  median {r.median_ratio:.2f}x")
    if r.missing:
        print(f"not run (repo missing under {r.repos_dir}): {', '.join(sorted(r.missing))}")
