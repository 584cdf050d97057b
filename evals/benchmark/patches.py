"""`investigate bench --patch`: scoring `investigate fix` on a suite.

Each case runs `investigate fix CASE -f json -q` (mode `fix`; its report is the
investigation's plus `patches`). Per case:

- patched / verified: a patch (a verified one) came out for the report's confirmed root
  cause; the rates are over the cases with a confirmed root cause;
- seeded_verified: a verified patch for a finding of the seeded category;
- matches: the verified root-cause patch has the seeded fix's effect: the case's own
  command, run plainly on a copy with the patch applied (no tracer, the full training,
  as the suite's metrics were measured), recovers at least `RECOVERED` of the way from
  the seeded metric back to the clean template's (None when not measured: no verified
  patch, or no metric to compare);
- on a clean control, any patch at all is a false patch;
- every confirmed finding's outcome (agent/fix/outcomes.py): its patch's status, or why
  it has none, and for a patch that fell short the kind of reason.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import shlex
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pydantic import BaseModel

from torch_investigate.evals.benchmark.patch_records import PatchScore, PatchSummary
from torch_investigate.evals.seeding.apply import copy_repo
from torch_investigate.evals.seeding.records import Case, CleanControl, Template
from torch_investigate.evals.seeding.verify import parse_metric, run_metric
from torch_investigate.tools.fix_records import OUTCOMES
from torch_investigate.tools.records import Report

REPOS = Path(__file__).resolve().parents[1] / "repos"
RECOVERED = 0.9  # share of the seeded metric's distance to the healthy one a patch must win back


class MetricCheck(BaseModel):
    """One plain run of a patched case, cached by the case and the diff."""

    key: str
    value: float | None = None
    error: str = ""


def score_patch(entry: Case | CleanControl, report: Report | None) -> PatchScore:
    from torch_investigate.agent.fix.outcomes import outcomes

    if report is None:
        return PatchScore(error="no report")
    patches = report.patches
    score = PatchScore(
        patches=len(patches),
        verified_patches=sum(p.verified for p in patches),
        root_confirmed=bool(report.root_cause)
        and any(f.id == report.root_cause and f.status == "confirmed" for f in report.findings),
        findings=outcomes(report),
    )
    root = next((p for p in patches if p.finding == report.root_cause), None)
    if root is not None:
        score.patched = True
        score.verified = root.verified
        score.status = root.status
        score.change = root.change
        score.reason = root.reason
        score.origin = root.origin
    if isinstance(entry, Case):
        seeded = {f.id for f in report.findings if f.category == entry.category}
        score.seeded_verified = any(p.verified and p.finding in seeded for p in patches)
    return score


def command_of(suite: Path, entry: Case | CleanControl) -> Template | None:
    """The case's training command and metric as a template: the dev suite's from its
    template repo, a hand-written suite's from its manifest entry (`command`)."""
    template_json = REPOS / entry.template / "template.json"
    if template_json.is_file():
        return Template.load(template_json.parent)
    raw = json.loads((suite / "manifest.json").read_text(encoding="utf-8"))
    for c in raw.get("cases", []):
        if c.get("id") == entry.id and c.get("command"):
            argv = shlex.split(c["command"])
            argv = argv[1:] if argv and argv[0].startswith("python") else argv
            healthy = entry.healthy_metric if entry.healthy_metric is not None else math.nan
            return Template(
                name=entry.id, command=argv, metric=entry.metric, direction=entry.direction,
                healthy=healthy, chance=math.nan,
            )  # fmt: skip
    return None


def measure_matches(
    suite: Path,
    cases: list[tuple[Case, Report, PatchScore]],
    cache: Path | None,
    jobs: int,
) -> None:
    """Fill `metric` and `matches` for each case with a verified root-cause patch."""
    todo = [(c, r, s) for c, r, s in cases if s.verified]

    def one(item: tuple[Case, Report, PatchScore]) -> None:
        case, report, score = item
        patch = next(p for p in report.patches if p.finding == report.root_cause)
        check = _metric(suite, case, patch.diff, cache)
        score.metric, score.metric_error = check.value, check.error
        score.matches = matches(case, check.value) if not check.error else None

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, todo))


def matches(case: Case, value: float | None) -> bool | None:
    healthy, buggy = case.healthy_metric, case.buggy_metric
    if healthy is None or value is None or not math.isfinite(value):
        return None if healthy is None else False
    sign = 1.0 if case.direction == "higher" else -1.0
    if buggy is None or not math.isfinite(buggy):  # the seeded copy crashed
        return sign * (value - healthy) >= -0.05 * max(abs(healthy), 1e-9)
    gap = sign * (healthy - buggy)
    if gap <= 0:
        return sign * (value - healthy) >= -1e-9
    return sign * (value - buggy) >= RECOVERED * gap


def _metric(suite: Path, case: Case, diff: str, cache: Path | None) -> MetricCheck:
    # the reader is part of the key: a cached run read by an older one is read again
    key = hashlib.sha256(f"{case.id}\0{diff}\0read_metric".encode()).hexdigest()[:24]
    path = cache / "patch-metric" / f"{case.id}.json" if cache is not None else None
    if path is not None and path.is_file():
        try:
            cached = MetricCheck.model_validate_json(path.read_text(encoding="utf-8"))
            if cached.key == key:
                return cached
        except ValueError:
            pass
    check = _run_patched(suite, case, diff, key)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(check.model_dump_json(), encoding="utf-8")
    return check


def read_metric(stdout: str, name: str) -> float | None:
    """The `METRIC name=value` line, else the last `name value` (or `name=value`,
    `name: value`) the program printed: the held-out suites report their metric in their
    own words (`final | val_rmse 0.71 | val_r2 0.97`), as their manifests measured it."""
    value = parse_metric(stdout, name)
    if value is not None:
        return value
    found = re.findall(
        rf"(?<![\w.]){re.escape(name)}\s*[=:]?\s*(-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)", stdout
    )
    return float(found[-1]) if found else None


def _run_patched(suite: Path, case: Case, diff: str, key: str) -> MetricCheck:
    from torch_investigate.agent.fix.diff import PatchError, apply_diff

    template = command_of(suite, case)
    if template is None:
        return MetricCheck(key=key, error="no command to measure the metric with")
    holder = Path(tempfile.mkdtemp(prefix="ti-patch-metric-"))
    try:
        work = holder / Path(case.path).name
        copy_repo(suite / case.path, work)
        try:
            apply_diff(work, diff)
        except PatchError as e:
            return MetricCheck(key=key, error=f"the diff does not apply: {e}")
        run = run_metric(work, template, parse=read_metric)
        value = run.value if run.value is None or math.isfinite(run.value) else None
        error = (
            run.error
            if run.returncode != 0
            else ("" if run.value is not None else "no METRIC line")
        )
        return MetricCheck(key=key, value=value, error=error)
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def summarize(scores: Iterable[tuple[str, PatchScore]]) -> PatchSummary:
    """`scores`: (kind, score) per case, kind `buggy` or `clean`."""
    items = list(scores)
    buggy = [s for k, s in items if k == "buggy"]
    clean = [s for k, s in items if k == "clean"]
    rooted = [s for s in buggy if s.root_confirmed]
    measured = [s for s in buggy if s.matches is not None]

    findings = [o for s in buggy for o in s.findings]
    short = Counter(o.why for o in findings if o.outcome in ("unverified", "dropped"))

    def share(n: int, d: int) -> float:
        return round(n / d, 4) if d else 0.0

    return PatchSummary(
        cases=len(buggy),
        confirmed_root_causes=len(rooted),
        patched=sum(s.patched for s in rooted),
        verified=sum(s.verified for s in rooted),
        patch_rate=share(sum(s.patched for s in rooted), len(rooted)),
        verified_rate=share(sum(s.verified for s in rooted), len(rooted)),
        seeded_verified=sum(s.seeded_verified for s in buggy),
        measured=len(measured),
        matches=sum(bool(s.matches) for s in measured),
        clean_controls=len(clean),
        clean_patched=sum(s.patches > 0 for s in clean),
        by_origin={
            origin: sum(1 for s in rooted if s.verified and s.origin == origin)
            for origin in ("mechanical", "model")
        },
        confirmed_findings=len(findings),
        outcomes={k: n for k in OUTCOMES if (n := sum(o.outcome == k for o in findings))},
        short_of=dict(short.most_common()),
    )
