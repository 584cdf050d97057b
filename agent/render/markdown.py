"""The report for people: the output of `investigate PATH`.

Reads in a terminal as plain text and on GitHub as Markdown. Repo-derived text
is escaped (`<`, `*`, backticks, table pipes) so evidence such as
`<lambda>` or `a|b` can neither inject HTML nor break a table.
"""

from __future__ import annotations

import re
import shlex

from torch_investigate.agent.core.answer import confirming_label, lead, summary_of
from torch_investigate.agent.core.curves import STATISTICS_NOTE
from torch_investigate.agent.render._format import (
    fmt_num,
    fmt_seconds,
    fmt_value,
    one_line,
    sentence,
)
from torch_investigate.agent.render._interventions import run_title
from torch_investigate.agent.render._patches import markdown_lines
from torch_investigate.agent.render._sections import (
    ISOLATION_TEXT,
    ReportView,
    category_title,
    run_numbers,
    stage_reason,
    symptom_title,
    total_seconds,
    view,
    where_text,
)
from torch_investigate.tools.records import (
    CheckItem,
    Finding,
    Observation,
    Report,
    StageResult,
    SummaryFinding,
)

# Prose is escaped only where Markdown would misread it, so that the text reads as plain
# text too (a report on a pipe, in a log): `<` where it could open HTML or an autolink (on
# GitHub `<script>` is markup), `*` (emphasis), a backslash before punctuation, a backtick
# left unpaired. A backtick pair stays a code span: the checks quote commands and code so
# (`python train.py`). A symbol name in angle brackets (`<module>`, `<lambda>`) becomes a
# code span, which shows it literally both ways. `>` only matters at the start of a line,
# where repo text never stands here.
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_ANGLED_NAME = re.compile(r"<\w+>")
_MD_SPECIAL = str.maketrans({"`": "\\`", "*": "\\*"})
_OPENS_HTML = re.compile(r"<(?=[A-Za-z/!?])")
_ESCAPING_BACKSLASH = re.compile(r"\\(?=[!-/:-@[-`{-~])")
_OUTCOME_LABEL = {
    "passed": "PASS",
    "failed": "FAIL",
    "skipped": "SKIP",
    "not_applicable": "N/A",
    "pending": "PENDING",
}
# Bounds keep the report one screen per section for very large repos.
_MAX_LAYERS = 40
_MAX_DIRTY = 20
_MAX_COMMITS = 10


def md(text: str) -> str:
    """Prose that Markdown renders as written and that reads the same as plain text."""
    out, at = [], 0
    for span in _CODE_SPAN.finditer(text):
        out += [_prose(text[at : span.start()]), span.group(0)]
        at = span.end()
    return "".join([*out, _prose(text[at:])])


def _prose(text: str) -> str:
    out, at = [], 0
    for name in _ANGLED_NAME.finditer(text):
        out += [_escape(text[at : name.start()]), f"`{name.group(0)}`"]
        at = name.end()
    return "".join([*out, _escape(text[at:])])


def _escape(text: str) -> str:
    text = _ESCAPING_BACKSLASH.sub(r"\\\\", text).translate(_MD_SPECIAL)
    return _OPENS_HTML.sub(r"\\<", text)


def code(text: str) -> str:
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def cell(text: str) -> str:
    """A table cell: one line, pipes escaped (GFM splits on them even in code spans)."""
    return one_line(text).replace("|", "\\|") or "—"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines


def _at(f: SummaryFinding) -> str:
    """`category` at `file:line` in `symbol`, for the answer's first line."""
    if f.file is None:
        place = f"in {code(f.symbol)} (file not located)" if f.symbol else "(no single file)"
    else:
        at = f"{f.file}:{f.line}" if f.line is not None else f.file
        place = f"at {code(at)}" + (f" in {code(f.symbol)}" if f.symbol else "")
    return f"{code(f.category)} {place}"


def _answer(report: Report) -> list[str]:
    """The answer, before anything else: root cause, why, the confirming number."""
    s = summary_of(report)
    rc = s.root_cause
    if rc is not None:
        lines = [f"**Root cause:** {_at(rc)} ({rc.id}, confirmed): {md(sentence(rc.title))}"]
        lines += ["", f"**Why it breaks learning:** {md(sentence(rc.why))}"]
        if s.confirming:
            lines += ["", f"**{confirming_label(s)}:** {md(sentence(s.confirming))}"]
        root = report.finding(rc.id)
        if root is not None and root.confirm:
            lines += ["", f"**Try:** {md(sentence(root.confirm))}"]
        return lines
    label, _, rest = lead(s).partition(": ")
    lines = [f"**{md(label)}:** {md(rest)}"]
    if s.suspected is not None:
        lines += [
            "",
            f"**Suspected, not confirmed:** {s.suspected.id} {_at(s.suspected)} (section C).",
        ]
    return lines


def _header(report: Report) -> list[str]:
    lines = [f"# torch-investigate: {md(report.repo)}", "", *_answer(report), ""]
    if report.command is not None:
        argv = " ".join(shlex.quote(a) for a in report.command.argv)
        lines.append(
            f"- **Command:** {code('python ' + argv)}, chosen from {code(report.command.source)}: "
            f"{md(one_line(report.command.reason))}"
        )
        others = [c for c in report.command.candidates if c != report.command.source]
        if others:
            lines.append(f"  - other candidates: {', '.join(code(c) for c in others)}")
    else:
        note = report.command_note or "no reason recorded"
        lines.append(f"- **Command:** none ran: {md(one_line(note))}")
    if report.command is not None and report.command_note:
        lines.append(f"  - note: {md(one_line(report.command_note))}")
    isolation = ISOLATION_TEXT.get(report.isolation, report.isolation)
    lines.append(f"- **Isolation:** {code(report.isolation)}, {md(isolation)}")
    if report.symptom:
        title = symptom_title(report.symptom)
        evidence = report.symptom_evidence or "no evidence recorded"
        lines.append(
            f"- **Symptom:** {code(report.symptom)} ({md(title)}); evidence: "
            f"{md(one_line(evidence))}"
        )
    else:
        lines.append(
            "- **Symptom:** not established"
            + (f"; {md(one_line(report.symptom_evidence))}" if report.symptom_evidence else "")
        )
    reason = report.conclusion_reason or "no reason recorded"
    lines.append(f"- **Conclusion:** {code(report.conclusion)}: {md(one_line(reason))}")
    phases = ", ".join(
        f"{md(k)} {fmt_seconds(v)}" for k, v in report.timings.items() if k != "total"
    )
    lines.append(
        f"- **Total time:** {fmt_seconds(total_seconds(report))}"
        + (f" ({phases})" if phases else "")
    )
    meta = [f"policy {code(report.policy)}", f"schema {report.schema_version}"]
    if report.tool_version:
        meta.append(f"tool {report.tool_version}")
    if report.created_at:
        meta.append(f"created {report.created_at}")
    lines.append(f"- **Run by:** {', '.join(meta)}")
    return lines


def _check(item: CheckItem) -> str:
    kind = "runtime" if item.dynamic else "static"
    detail = item.detail
    if not detail:
        detail = (
            "no evidence recorded" if item.outcome in ("passed", "failed") else "no reason given"
        )
    return (
        f"- **{_OUTCOME_LABEL[item.outcome]}** {code(item.id)} ({kind}) {md(one_line(item.description))}"
        f": {md(one_line(detail))}"
    )


def _stages(stages: list[StageResult]) -> list[str]:
    lines = ["## Stages", ""]
    if not stages:
        return [*lines, "None: no stage was walked."]
    rows = [
        [str(s.stage.value), s.title, s.verdict or "open", one_line(stage_reason(s), 160)]
        for s in stages
    ]
    lines += _table(["#", "Stage", "Verdict", "Reason"], rows)
    for s in stages:
        lines += ["", f"### Stage {s.stage.value}: {md(s.title)} ({s.verdict or 'open'})", ""]
        refs = f" (findings: {', '.join(s.finding_ids)})" if s.finding_ids else ""
        lines += [md(one_line(stage_reason(s))) + refs, ""]
        if s.checklist:
            lines += [_check(c) for c in s.checklist]
        else:
            lines.append("- none: this stage has no checklist items")
    return lines


def _observation(obs: Observation) -> str:
    text = f"  - [{obs.source}] {md(one_line(obs.text))}"
    if values := obs.reported_values:
        text += " (" + ", ".join(f"{md(k)}={md(fmt_value(v))}" for k, v in values.items()) + ")"
    if obs.where is not None:
        text += f", at {code(str(obs.where))}"
    return text


def _finding(f: Finding, is_root: bool) -> list[str]:
    head = f"### {f.id or '(no id)'}: {md(f.title)}"
    if is_root:
        head += " (root cause)" if f.status == "confirmed" else " (suspected root cause)"
    lines = [head, ""]
    if f.status == "refuted":
        # Refuted findings stay visible so nobody re-investigates them, but briefly.
        lines.append(
            f"- **Category:** {code(f.category)}; **Stage:** {f.stage.value} {f.stage.title}; "
            f"**Status:** refuted; **Confidence:** {f.confidence}"
        )
    else:
        # The taxonomy title is shown only when the finding's own title differs from it.
        cat_title = category_title(f.category)
        cat_note = f" ({md(cat_title)})" if cat_title != f.title else ""
        lines += [
            f"- **Category:** {code(f.category)}{cat_note}",
            f"- **Stage:** {f.stage.value} {f.stage.title}",
            f"- **Status:** {f.status}",
            f"- **Confidence:** {f.confidence}",
        ]
    loc = f.location
    where = code(str(loc)) if loc is not None else md(where_text(f))
    lines.append(f"- **Where:** {where}")
    lines.append("- **Observed evidence:**")
    lines += [_observation(o) for o in f.evidence] or ["  - none recorded"]
    for r in f.revisions:  # who changed it after it was recorded, on which observations
        on = f" on {', '.join(r.evidence_ids)}" if r.evidence_ids else ""
        said = f": {md(one_line(r.note))}" if r.note else ""
        change = (
            f"{r.status_from} -> {r.status_to}"
            if r.status_from != r.status_to
            else (f"evidence added ({r.status_to})")
        )
        lines.append(f"- **Revised by:** {code(r.by or 'unknown')}, {change}{on}{said}")
    if f.notes:
        lines.append(
            f"- **Notes (the recorder's reasoning, not evidence):** {md(one_line(f.notes))}"
        )
    if f.status == "refuted":
        lines.append(f"- **Why it was suspected:** {md(one_line(f.why))}")
        return lines
    lines.append(f"- **Why it breaks learning:** {md(one_line(f.why))}")
    lines.append(f"- **Smallest test or change that confirms it:** {md(one_line(f.confirm))}")
    if f.detector:
        lines.append(f"- **Detector:** {code(f.detector)}")
    if f.recorded_by.startswith(("review:", "llm:", "chat")):
        lines.append(f"- **Recorded by:** {code(f.recorded_by)} (not the built-in checks)")
    return lines


def _findings(v: ReportView) -> list[str]:
    lines = ["## Findings", ""]
    if not v.findings:
        return [*lines, "None: no finding was recorded."]
    rc = v.report.root_cause
    for f in v.findings:
        lines += [*_finding(f, f.id == rc and bool(rc)), ""]
    return lines[:-1]


def _finding_item(f: Finding, suspected: Finding | None = None) -> str:
    loc = f.location
    where = f"at {code(str(loc))}" if loc is not None else md(where_text(f))
    note = "; suspected root cause, not confirmed" if f is suspected else ""
    return (
        f"- **{f.id}** {md(f.title)}: {where} (stage {f.stage.value}, confidence "
        f"{f.confidence}{note})"
    )


def _conclusions(v: ReportView) -> list[str]:
    lines = ["## A. Most likely root cause", ""]
    if v.root is not None:
        loc = v.root.location
        where = f"at {code(str(loc))}" if loc is not None else md(where_text(v.root))
        lines.append(f"**{v.root.id}: {md(v.root.title)}** {where}")
        lines.append("")
    lines.append(md(v.root_statement))
    lines += ["", "## B. Confirmed defects", ""]
    lines += [_finding_item(f) for f in v.confirmed] or [
        "None: no defect was confirmed by runtime evidence."
    ]
    lines += ["", "## C. Plausible but unproven causes", ""]
    lines += [_finding_item(f, v.suspected) for f in v.plausible] or [
        "None: no unproven suspicion remains."
    ]
    lines += ["", "## D. Experiments to run next, ordered by information value", ""]
    if not v.experiments:
        lines.append("None: no experiment is proposed.")
    for n, e in enumerate(v.experiments, 1):
        number = e.order if e.order > 0 else n
        refs = f" (findings {', '.join(e.finding_ids)})" if e.finding_ids else ""
        lines.append(
            f"{number}. **{md(one_line(e.description))}** [{e.kind}, information value "
            f"{fmt_num(e.information_value)}]{refs}. Distinguishes: {md(one_line(e.distinguishes))}"
        )
    lines += ["", "## E. Changes NOT to attempt yet", ""]
    if not v.not_yet:
        lines.append("None: no change is held back.")
    for n in v.not_yet:
        blocked = ", ".join(n.blocked_by) if n.blocked_by else "no finding named"
        lines.append(
            f"- **{md(one_line(n.change))}** [{n.kind}]: {md(sentence(n.reason))} "
            f"Blocked by: {blocked}."
        )
    return lines


def _runs(report: Report) -> list[str]:
    lines = ["## Runs", ""]
    if not report.runs:
        return [*lines, "None: the training path was not run."]
    rows = []
    for r in report.runs:
        n = run_numbers(report, r)
        same = "—"
        if n.compared_steps is not None:
            same = f"{fmt_num(n.baseline_settled)} ({n.compared_steps} steps)"
        rows.append(
            [md(run_title(r)), r.status, str(r.steps), fmt_num(n.first), fmt_num(n.settled),
             same, fmt_seconds(r.wall_s)]
        )  # fmt: skip
    header = ["Run", "Status", "Steps", "First loss", "Settled loss", "As written, same steps"]
    lines += _table([*header, "Wall time"], rows)
    lines += ["", md(STATISTICS_NOTE)]
    messages = [r for r in report.runs if r.message]
    if messages:
        lines.append("")
        lines += [f"- {md(run_title(r))}: {md(one_line(r.message, 300))}" for r in messages]
    return lines


def _gradient_flow(report: Report) -> list[str]:
    if not report.gradient_flow:
        return []
    shown = report.gradient_flow[:_MAX_LAYERS]
    rows = [
        [code(s.name), fmt_num(s.grad_norm), fmt_num(s.weight_norm), fmt_num(s.update_ratio)]
        for s in shown
    ]
    lines = ["## Gradient flow", ""]
    lines += _table(["Parameter", "Grad norm", "Weight norm", "Update/weight"], rows)
    cut = len(report.gradient_flow) - len(shown)
    if cut > 0:
        lines += ["", f"{cut} more parameters not shown (see the JSON or HTML report)."]
    return lines


def _git(report: Report) -> list[str]:
    lines = ["## Git", ""]
    git = report.git
    if git is None:
        return [*lines, "Not read."]
    if not git.is_repo:
        return [*lines, "Not a git repository."]
    lines.append(f"- **HEAD:** {code(git.head or 'unknown')} on {code(git.branch or 'detached')}")
    if git.dirty:
        shown = ", ".join(code(p) for p in git.dirty[:_MAX_DIRTY])
        more = f" and {len(git.dirty) - _MAX_DIRTY} more" if len(git.dirty) > _MAX_DIRTY else ""
        lines.append(f"- **Uncommitted changes:** {shown}{more}")
    else:
        lines.append("- **Uncommitted changes:** none")
    if git.recent_commits:
        lines.append("- **Recent commits touching the training path:**")
        for c in git.recent_commits[:_MAX_COMMITS]:
            files = f" ({', '.join(code(p) for p in c.files[:5])})" if c.files else ""
            lines.append(
                f"  - {code(c.sha[:10])} {md(c.date)} {md(c.author)}: {md(one_line(c.summary))}{files}"
            )
    else:
        lines.append("- **Recent commits touching the training path:** none")
    return lines


def _tail(report: Report) -> list[str]:
    lines: list[str] = []
    if report.notes:
        lines += ["## Notes", ""]
        lines += [f"- {md(one_line(n))}" for n in report.notes]
        lines.append("")
    if report.llm is not None:
        u = report.llm
        cost = f", cost ${u.cost_usd:.4g}" if u.cost_usd is not None else ""
        lines += [
            "## LLM usage",
            "",
            f"- model {code(u.model)}: {u.steps} steps, {u.prompt_tokens} prompt (tool schemas "
            f"included, about {u.schema_tokens} a request) + {u.completion_tokens} completion "
            f"tokens{cost}, {u.refusals} refused by guardrails",
        ]
    return lines


def to_markdown(report: Report) -> str:
    v = view(report)
    parts = [
        _header(report),
        _stages(report.stages),
        _findings(v),
        _conclusions(v),
        markdown_lines(report.patches, md, code),
        _runs(report),
        _gradient_flow(report),
        _git(report),
    ]
    lines: list[str] = []
    for part in parts:
        if part:
            lines += [*part, ""]
    lines += _tail(report)
    return "\n".join(lines).rstrip() + "\n"
