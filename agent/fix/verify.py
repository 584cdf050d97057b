"""Verification: a patch is judged by running it, never by reading it.

The patch is applied to a fresh copy of the repo (the user's files are never touched),
and the same investigation runs there: the same command, steps, seed and limits, the
built-in planner. The patch is `verified` when

- the patched copy trains (no crash the original did not have),
- it confirms no defect the original did not confirm,
- it no longer confirms the finding's category, and
- learning recovers by the criterion the finding's intervention used: a change that kept
  the objective (zero_grad before backward, weight decay off, ...) must make the loss fall
  as the intervention did (`checks.effects.compare`, the same steps compared); a change
  that alters the loss itself (a softmax stripped, arguments swapped) must learn as well
  as the intervention's run did; a finding confirmed by a runtime observation alone is
  recovered when the patched run no longer shows it.

Anything else is `unverified` (it ran; the numbers say what fell short) or `dropped`
(it did not apply, broke the run, or brought a new confirmed defect).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from torch_investigate.agent.checks.effects import compare
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.core.planner import Planner
from torch_investigate.agent.core.policy import investigate
from torch_investigate.agent.core.runs import Run, Runner
from torch_investigate.agent.core.session import InvestigationError, Options, Session
from torch_investigate.agent.fix.diff import PatchError, apply_diff
from torch_investigate.agent.render._interventions import change_words
from torch_investigate.tools.fix_records import PatchRun, PatchStatus
from torch_investigate.tools.intervention_effect import InterventionEffect
from torch_investigate.tools.interventions import changes_loss
from torch_investigate.tools.records import Finding, Report

# Interventions that diagnose rather than repair: a run on one fixed batch, shuffled
# targets, the reference optimizer. A finding confirmed through them has no fix to
# reproduce; its patch is judged by the runtime observation.
DIAGNOSTIC = frozenset({"fixed_batch", "shuffle_targets", "holdout", "fixed_pool", "reference_lr"})
# A patch that alters the loss may settle a little above the intervention's run (the
# intervention acts at run time, the patch in the source): within this share of the
# loss scale it learns as well.
MATCH_TOLERANCE = 0.05
METRIC_LINE = re.compile(r"^METRIC (\w+)=(\S+)\s*$", re.MULTILINE)
MAX_PLOTTED = 600  # loss values per run kept for the report's plots

# The phrases `verify` and `judge` open a patch's reason with, by kind (bench --patch
# counts the patches that fell short by these).
REASON_KINDS: tuple[tuple[str, str], ...] = (
    ("the patch does not apply", "does not apply"),
    ("the patched copy could not be investigated", "not investigated"),
    ("the patched copy did not train", "did not train"),
    ("the patched run crashed", "crashed"),
    ("the patched run confirms a defect the original did not", "new defect"),
    ("the patched run still confirms", "still confirmed"),
    ("but learning did not recover", "learning did not recover"),
)


def reason_kind(reason: str) -> str:
    return next((kind for phrase, kind in REASON_KINDS if phrase in reason), "other")


@dataclass
class Original:
    """The investigation of the repo as written: what every patched copy is judged against."""

    repo: Path
    options: Options
    report: Report
    runs: dict[str, Run]
    runner: Runner | None

    @classmethod
    def of(cls, session: Session, report: Report) -> Original:
        runs = dict(session.runner.runs) if session.runner is not None else {}
        return cls(session.repo, session.options, report, runs, session.runner)

    @property
    def baseline(self) -> Run | None:
        return self.runs.get("baseline")

    @property
    def confirmed(self) -> set[str]:
        return {f.category for f in self.report.findings if f.status == "confirmed"}

    def run_of(self, interventions: dict[str, Any]) -> Run | None:
        if self.runner is None:
            return None
        return self.runs.get(self.runner.key(interventions))


@dataclass
class Judgement:
    status: PatchStatus
    reason: str
    criterion: str = ""
    before: PatchRun | None = None
    after: PatchRun | None = None
    still_confirmed: list[str] = field(default_factory=list)
    new_confirmed: list[str] = field(default_factory=list)
    report: Report | None = None  # the patched copy's investigation


def verify(original: Original, finding: Finding, diff: str) -> Judgement:
    """Apply `diff` to a fresh copy, investigate it the same way, and judge the result."""
    before = patch_run(original.baseline)

    def edit(root: Path) -> None:
        apply_diff(root, diff)

    try:
        with Session(original.repo, original.options, edit_copy=edit) as session:
            investigate(session, Planner())
            report = session.report()
            run = session.runner.runs.get("baseline") if session.runner else None
            judgement = judge(original, finding, report, run)
    except PatchError as e:
        return Judgement("dropped", f"the patch does not apply: {e}", before=before)
    except InvestigationError as e:
        return Judgement("dropped", f"the patched copy could not be investigated: {e.message}", before=before)  # fmt: skip
    judgement.before = before
    return judgement


def judge(original: Original, finding: Finding, report: Report, run: Run | None) -> Judgement:
    after = patch_run(run)
    confirmed = sorted({f.category for f in report.findings if f.status == "confirmed"})
    new = [c for c in confirmed if c not in original.confirmed]
    criterion, recovered, numbers = recovery(original, finding, run)
    j = Judgement(
        "dropped", "", criterion, after=after, still_confirmed=confirmed, new_confirmed=new
    )
    j.report = report
    base = original.baseline
    if run is None or run.trace is None or not run.trace.ran_training:
        why = after.status if after is not None else "no run"
        message = run.summary().message if run is not None else ""
        j.reason = (
            f"the patched copy did not train ({why}{': ' + message[:200] if message else ''})"
        )
    elif run.crashed and not (base is not None and base.crashed):
        j.reason = f"the patched run crashed: {run.summary().message[:200]}"
    elif new:
        j.reason = f"the patched run confirms a defect the original did not: {', '.join(new)}"
    elif finding.category in confirmed:
        j.status = "unverified"
        j.reason = f"the patched run still confirms {finding.category}; {numbers}"
    elif not recovered:
        j.status = "unverified"
        j.reason = (
            f"{finding.category} is no longer confirmed, but learning did not recover: {numbers}"
        )
    else:
        j.status = "verified"
        j.reason = f"{finding.category} is no longer confirmed and {numbers}"
    return j


def fix_intervention(finding: Finding) -> InterventionEffect | None:
    """The effect of the intervention that repaired the run, if the finding has one (a
    diagnostic run on a fixed batch does not count)."""
    for obs in finding.evidence:
        effect = obs.effect if obs.source == "intervention" else None
        ivs = effect.interventions if effect is not None else None
        if ivs and not set(ivs) & DIAGNOSTIC:
            return effect
    return None


def recovery(original: Original, finding: Finding, patched: Run | None) -> tuple[str, bool, str]:
    """(the criterion in words, whether the patched run meets it, the numbers)."""
    base = original.baseline
    if patched is None or patched.trace is None or base is None or base.trace is None:
        return "a run of the patched copy", False, "no comparable run"
    effect = fix_intervention(finding)
    if effect is not None and effect.interventions:
        ivs = effect.interventions
        words = ", ".join(change_words(k if v is True else f"{k}={v}") for k, v in ivs.items())
        iv_run = original.run_of(ivs)
        steps = len(iv_run.trace.raw_curve()) if iv_run is not None and iv_run.trace else None
        if not changes_loss(list(ivs)) and effect.improved:
            eff = compare(base, patched, "with the patch", steps=steps)
            return f"the loss falls as it did with {words}", eff.improved, eff.text
        if iv_run is not None and iv_run.trace is not None:
            eff = compare(iv_run, patched, "with the patch", steps=steps)
            ok = eff.iv_final is not None and eff.relative >= -MATCH_TOLERANCE
            text = (
                f"with the patch the loss settles at {fmt(eff.iv_final)} over {steps} steps, "
                f"with {words} at {fmt(eff.base_final)}"
            )
            return f"the patched run learns as well as the run with {words}", ok, text
    eff = compare(base, patched, "with the patch")
    return "the runtime observation that confirmed it is gone", True, eff.text


def patch_run(run: Run | None) -> PatchRun | None:
    if run is None:
        return None
    s = run.summary()
    t = run.trace
    evals = t.eval_curve() if t is not None else []
    metrics: dict[str, float] = {}
    for name, raw in METRIC_LINE.findall(run.result.stdout or ""):
        try:
            value = float(raw)
        except ValueError:
            continue
        if math.isfinite(value):
            metrics[name] = value
    return PatchRun(
        status=s.status, steps=s.steps, first_loss=s.first_loss, settled_loss=s.settled_loss,
        eval_loss=evals[-1][1] if evals else None, metrics=metrics, losses=s.losses[:MAX_PLOTTED],
    )  # fmt: skip
