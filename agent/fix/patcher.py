"""`investigate fix`: for each confirmed finding, root cause first, a source patch that a
rerun of the training path verifies.

The planner's mechanical candidates (agent/fix/mechanical/) are tried in order, at most
`max_candidates` per finding, until one is verified; with a model, a finding still
without a verified patch is handed to it (`propose_patch`, agent/fix/propose.py). Each
finding keeps one patch: the first verified one, else the best of the rest (unverified
before dropped). A healthy repo has no confirmed finding and gets no patch.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from torch_investigate.agent.core.guardrails import correctness_open
from torch_investigate.agent.fix.diff import diff_files, unified_diff
from torch_investigate.agent.fix.mechanical import REGISTRY, Candidate, FixContext
from torch_investigate.agent.fix.verify import Judgement, Original, verify
from torch_investigate.evals.seeding.edits import EditConflict, apply_edits
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.fix_records import Patch, PatchOrigin
from torch_investigate.tools.records import Finding, Report, Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

MAX_CANDIDATES = 3
_RANK = {"verified": 0, "unverified": 1, "dropped": 2}

Say = Callable[[str], None]


class Proposer(Protocol):
    """Proposes a diff for a finding the planner could not patch (an LLM, through the
    `propose_patch` tool) and returns it judged, or None."""

    def propose(self, fixing: Fixing, finding: Finding, best: Patch | None) -> Patch | None: ...


@dataclass
class Fixing:
    """One `investigate fix` run: the original investigation and the repo as indexed."""

    original: Original
    context: FixContext
    say: Say

    @classmethod
    def of(cls, session: Session, report: Report, say: Say | None = None) -> Fixing:
        original = Original.of(session, report)
        base = original.baseline
        source = Source(root=session.workspace.root, index=session.index)
        context = FixContext(source, report, base.trace if base is not None else None)
        return cls(original, context, say or (lambda _text: None))

    def judge(self, finding: Finding, diff: str, change: str, origin: PatchOrigin, by: str, line: int | None = None) -> Patch:  # fmt: skip
        """Verify a diff for the finding and record the outcome as a patch."""
        self.say(f"fix: {finding.id} {finding.category}: trying {change}")
        j: Judgement = verify(self.original, finding, diff)
        self.say(f"fix: {finding.id} {finding.category}: {j.status}: {j.reason}")
        return Patch(
            id="", finding=finding.id, category=finding.category, origin=origin, proposed_by=by,
            change=change, files=diff_files(diff), line=line, diff=diff, status=j.status,
            verified=j.status == "verified", reason=j.reason, criterion=j.criterion,
            before=j.before, after=j.after, still_confirmed=j.still_confirmed,
            new_confirmed=j.new_confirmed,
        )  # fmt: skip


def targets(report: Report) -> list[Finding]:
    """Confirmed findings, the root cause first, then by stage; stage 8 only when stages
    1-7 are coherent (the guardrail on optimization changes holds for patches too)."""
    confirmed = [f for f in report.findings if f.status == "confirmed"]
    stages = {s.stage: s for s in report.stages}
    coherent = len(stages) == 8 and not correctness_open(stages)
    allowed = [f for f in confirmed if f.stage != Stage.OPTIMIZATION or coherent]
    return sorted(allowed, key=lambda f: (f.id != report.root_cause, int(f.stage), f.id))


def candidate_diff(source: Source, candidate: Candidate) -> tuple[str, int | None] | None:
    """The unified diff of a candidate's edits and the line its anchor lands on; None
    when the edits conflict or the edited code no longer parses."""
    originals = source.sources()
    edits = list(candidate.edits)
    if not any(e.anchor is not None for e in edits):
        edits[0] = type(edits[0])(edits[0].file, edits[0].start, edits[0].end, edits[0].text, 0)
    try:
        edited, (_, line) = apply_edits(originals, edits)
    except (EditConflict, KeyError):
        return None
    parser = sx.new_parser()
    if any(parser.parse(data).root_node.has_error for data in edited.values()):
        return None
    return unified_diff({f: originals[f] for f in edited}, edited), line


def patch_findings(
    session: Session,
    report: Report,
    *,
    proposer: Proposer | None = None,
    say: Say | None = None,
    max_candidates: int = MAX_CANDIDATES,
) -> list[Patch]:
    fixing = Fixing.of(session, report, say)
    patches: list[Patch] = []
    for finding in targets(report):
        # One patch per defect: a second site of a category a verified patch removed, or a
        # side effect that patch also removed (clipping that bit because the loss was
        # wrong), is no longer confirmed once that patch is in.
        covered = next((p for p in patches if p.verified and finding.category not in p.still_confirmed), None)  # fmt: skip
        if covered is not None:
            note = covered_note(finding, covered.id)
            fixing.say(note)
            report.notes.append(note)
            continue
        best: Patch | None = None
        tried = 0
        fix = REGISTRY.get(finding.category)
        for candidate in fix.candidates(fixing.context, finding) if fix else []:
            if tried >= max_candidates:
                break
            made = candidate_diff(fixing.context.source, candidate)
            if made is None or not made[0]:
                continue
            tried += 1
            patch = fixing.judge(finding, made[0], candidate.change, "mechanical", "planner", made[1])  # fmt: skip
            best = better(best, patch)
            if patch.verified:
                break
        if (best is None or not best.verified) and proposer is not None:
            proposed = proposer.propose(fixing, finding, best)
            if proposed is not None:
                tried += proposed.tried
                best = better(best, proposed)
        if best is None:
            fixing.say(f"fix: {finding.id} {finding.category}: no patch ({_why_none(finding)})")
            continue
        patches.append(
            best.model_copy(update={"id": f"P{len(patches) + 1}", "tried": max(tried, 1)})
        )
    return patches


def covered_note(finding: Finding, patch_id: str) -> str:
    """The report's note for a finding a verified patch already removed."""
    return f"fix: {finding.id} {finding.category} is no longer confirmed with {patch_id} applied: no patch of its own"  # fmt: skip


_COVERED = re.compile(r"^fix: (\S+) \S+ is no longer confirmed with (\S+) applied")


def covered_by(report: Report) -> dict[str, str]:
    """finding id -> the verified patch that removed it, from the notes `covered_note` wrote."""
    return {m[1]: m[2] for n in report.notes if (m := _COVERED.match(n))}


def better(a: Patch | None, b: Patch | None) -> Patch | None:
    if a is None or b is None:
        return a or b
    return b if _RANK[b.status] < _RANK[a.status] else a


def _why_none(finding: Finding) -> str:
    from torch_investigate.agent.fix.mechanical import NOT_MECHANICAL

    if finding.category in NOT_MECHANICAL:
        return f"not mechanical: {NOT_MECHANICAL[finding.category]}"
    return "no edit fits the code at its location"
