"""What became of each confirmed finding in an `investigate fix` run, read off its report:
its patch's status, or why it has none (another patch removed it, the stage-8 guardrail
held it back, no mechanical edit exists for its category, or none fit the code), and for
a patch that is not verified, the kind of reason verification gave."""

from __future__ import annotations

from torch_investigate.agent.fix.mechanical import NOT_MECHANICAL
from torch_investigate.agent.fix.patcher import covered_by, targets
from torch_investigate.agent.fix.verify import reason_kind
from torch_investigate.tools.fix_records import FindingOutcome, Outcome
from torch_investigate.tools.records import Report


def outcomes(report: Report) -> list[FindingOutcome]:
    """One entry per confirmed finding of the report, the root cause first."""
    patches = {p.finding: p for p in report.patches}
    covered = covered_by(report)
    patchable = {f.id for f in targets(report)}
    confirmed = [f for f in report.findings if f.status == "confirmed"]
    out: list[FindingOutcome] = []
    for f in sorted(confirmed, key=lambda f: (f.id != report.root_cause, int(f.stage), f.id)):
        why = ""
        outcome: Outcome
        if (p := patches.get(f.id)) is not None:
            outcome = p.status
            why = "" if p.verified else reason_kind(p.reason)
        elif f.id in covered:
            outcome = "covered"
        elif f.id not in patchable:
            outcome = "held"
        elif f.category in NOT_MECHANICAL:
            outcome = "not_mechanical"
        else:
            outcome = "no_edit"
        out.append(
            FindingOutcome(
                finding=f.id,
                category=f.category,
                stage=int(f.stage),
                root_cause=f.id == report.root_cause,
                outcome=outcome,
                why=why,
            )
        )
    return out
