"""One self-contained HTML page: the Markdown report's sections plus plots.

Invariants: no external resource of any kind (no src/href to another origin, no
web fonts, no script); every piece of repo-derived text passes through `esc`;
the plots are inline SVG built by `_svg` with `id` and `data-points`.
"""

from __future__ import annotations

import shlex
from html import escape

from torch_investigate.agent.core.answer import confirming_label, lead, summary_of
from torch_investigate.agent.core.curves import STATISTICS_NOTE
from torch_investigate.agent.render import _svg
from torch_investigate.agent.render._format import (
    fmt_num,
    fmt_seconds,
    fmt_value,
    one_line,
    sentence,
)
from torch_investigate.agent.render._interventions import run_name, run_title
from torch_investigate.agent.render._patches import html_section
from torch_investigate.agent.render._sections import (
    ISOLATION_TEXT,
    ReportView,
    category_title,
    is_baseline,
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
    RunSummary,
    StageResult,
    SummaryFinding,
)

UPDATE_RATIO_REFERENCE = 1e-3  # the usual rule of thumb for |dw|/|w| per step

_CSS = """
:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f;
       background: #fff; margin: 0; }
main { max-width: 940px; margin: 0 auto; padding: 24px 20px 60px; }
h1 { font-size: 1.6em; margin: 0 0 12px; word-break: break-all; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: 32px; }
h3 { font-size: 1.05em; margin: 20px 0 6px; }
code { font: 0.92em ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
       background: #f3f3f5; padding: 1px 4px; border-radius: 3px; }
dl.header { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dl.header dt { font-weight: 600; }
dl.header dd { margin: 0; }
table { border-collapse: collapse; width: 100%; font-size: 0.93em; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f6f8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
pre.diff { background: #f6f6f8; padding: 8px; overflow-x: auto; font-size: 0.88em; }
pre.diff .add { color: #116329; } pre.diff .del { color: #a40e26; }
.badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 0.85em;
         font-weight: 600; color: #fff; background: #777; }
.badge.coherent, .badge.passed, .badge.no_defect_found { background: #2e7d32; }
.badge.defect, .badge.failed, .badge.confirmed, .badge.defects_found { background: #c62828; }
.badge.inconclusive, .badge.plausible, .badge.pending { background: #b26a00; }
ul.checks { list-style: none; padding-left: 0; }
ul.checks li { margin: 3px 0; }
.finding { border: 1px solid #ddd; border-left: 5px solid #757575; border-radius: 4px;
           padding: 4px 14px 8px; margin: 12px 0; }
.finding.confirmed { border-left-color: #c62828; }
.finding.plausible { border-left-color: #b26a00; }
.finding.refuted { color: #555; }
.finding dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 12px; margin: 0; }
.finding dt { font-weight: 600; }
.finding dd { margin: 0; }
.src { font-size: 0.8em; font-weight: 700; text-transform: uppercase; color: #555; }
.muted, .empty { color: #777; }
.answer { border: 2px solid #444; border-radius: 6px; padding: 4px 16px 8px; margin: 12px 0 20px; }
.answer.root_cause, .answer.defects_found { border-color: #c62828; }
.answer.no_defect_found { border-color: #2e7d32; }
.answer.inconclusive { border-color: #b26a00; }
.answer p.headline { font-size: 1.1em; }
figure { margin: 16px 0; }
figcaption { font-weight: 600; margin-bottom: 4px; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
svg text.axis { font-size: 12px; }
svg text.legend { font-size: 12px; }
svg .grid { stroke: #e4e4e4; stroke-width: 1; }
svg .frame { fill: none; stroke: #999; stroke-width: 1; }
svg .reference { stroke: #c62828; stroke-width: 1.5; stroke-dasharray: 5 4; }
svg text.reference-label { fill: #c62828; font-weight: 600; }
svg tspan.muted { fill: #777; }
"""


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def _code(text: str) -> str:
    return f"<code>{esc(text)}</code>"


def _badge(word: str) -> str:
    return f'<span class="badge {esc(word)}">{esc(word.replace("_", " "))}</span>'


def _place(f: SummaryFinding) -> str:
    """<code>category</code> at <code>file:line</code> in <code>symbol</code>."""
    if f.file is None:
        place = f"in {_code(f.symbol)} (file not located)" if f.symbol else "(no single file)"
    else:
        at = f"{f.file}:{f.line}" if f.line is not None else f.file
        place = f"at {_code(at)}" + (f" in {_code(f.symbol)}" if f.symbol else "")
    return f"{_code(f.category)} {place}"


def _answer(v: ReportView) -> str:
    """The answer, before any plot: the headline, why, the confirming number, and the
    root cause's finding card."""
    s = summary_of(v.report)
    rc = s.root_cause
    if rc is not None:
        parts = [
            f'<p class="headline"><b>Root cause:</b> {_place(rc)} ({esc(rc.id)}, confirmed): '
            f"{esc(sentence(rc.title))}</p>",
            f"<p><b>Why it breaks learning:</b> {esc(sentence(rc.why))}</p>",
        ]
        if s.confirming:
            parts.append(f"<p><b>{esc(confirming_label(s))}:</b> {esc(sentence(s.confirming))}</p>")
        if v.root is not None:
            parts.append(_finding(v.root, True))
    else:
        label, _, rest = lead(s).partition(": ")
        parts = [f'<p class="headline"><b>{esc(label)}:</b> {esc(rest)}</p>']
        if s.suspected is not None:
            parts.append(
                f"<p><b>Suspected, not confirmed:</b> "
                f'<a href="#finding-{esc(s.suspected.id)}">{esc(s.suspected.id)}</a> '
                f"{_place(s.suspected)} (section C).</p>"
            )
    return f'<section id="answer" class="answer {esc(s.verdict)}">{"".join(parts)}</section>'


def _header(report: Report) -> str:
    rows: list[tuple[str, str]] = []
    if report.command is not None:
        argv = " ".join(shlex.quote(a) for a in report.command.argv)
        text = (
            f"{_code('python ' + argv)}, chosen from {_code(report.command.source)}: "
            f"{esc(report.command.reason)}"
        )
        if report.command_note:
            text += f'<br><span class="muted">{esc(report.command_note)}</span>'
    else:
        text = f"none ran: {esc(report.command_note or 'no reason recorded')}"
    rows.append(("Command", text))
    isolation = ISOLATION_TEXT.get(report.isolation, report.isolation)
    rows.append(("Isolation", f"{_code(report.isolation)}, {esc(isolation)}"))
    if report.symptom:
        rows.append(
            (
                "Symptom",
                f"{_code(report.symptom)} ({esc(symptom_title(report.symptom))}); evidence: "
                f"{esc(report.symptom_evidence or 'no evidence recorded')}",
            )
        )
    else:
        rows.append(("Symptom", f"not established {esc(report.symptom_evidence)}".strip()))
    rows.append(
        (
            "Conclusion",
            f"{_badge(report.conclusion)} {esc(report.conclusion_reason or 'no reason recorded')}",
        )
    )
    rows.append(("Total time", esc(fmt_seconds(total_seconds(report)))))
    run_by = f"policy {_code(report.policy)}, schema {esc(report.schema_version)}"
    if report.tool_version:
        run_by += f", tool {esc(report.tool_version)}"
    if report.created_at:
        run_by += f", created {esc(report.created_at)}"
    rows.append(("Run by", run_by))
    body = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    return f'<dl class="header">{body}</dl>'


def _plots(report: Report) -> str:
    if report.runs:
        series = [
            _svg.Series(
                label=run_name(r), values=r.losses, baseline=is_baseline(r), title=run_title(r)
            )
            for r in report.runs
        ]
        loss = _svg.line_chart(
            "plot-loss", "Loss per optimizer step", series, x_label="optimizer step", y_label="loss"
        )
    else:
        loss = _svg.empty_chart(
            "plot-loss", "Loss per optimizer step", 880, "the training path was not run"
        )
    layers = report.gradient_flow
    grads = _svg.log_bar_chart(
        "plot-grad-flow",
        "Gradient norm per parameter",
        [(s.name, s.grad_norm) for s in layers],
        value_label="gradient L2 norm",
    )
    ratios = _svg.log_bar_chart(
        "plot-update-ratio",
        "Update/weight ratio per parameter",
        [(s.name, s.update_ratio) for s in layers],
        value_label="|Δw| / |w| per step",
        reference=(UPDATE_RATIO_REFERENCE, "1e-3"),
    )
    return (
        '<section id="plots"><h2>Training signals</h2>'
        f"<figure><figcaption>Loss curves: the run as written and under each intervention"
        f"</figcaption>{loss}</figure>"
        f"<figure><figcaption>Gradient flow: gradient norm per parameter</figcaption>{grads}"
        "</figure>"
        f"<figure><figcaption>Update/weight ratio per parameter (reference line at 1e-3)"
        f"</figcaption>{ratios}</figure></section>"
    )


def _check(item: CheckItem) -> str:
    detail = item.detail or (
        "no evidence recorded" if item.outcome in ("passed", "failed") else "no reason given"
    )
    kind = "runtime" if item.dynamic else "static"
    return (
        f"<li>{_badge(item.outcome)} {_code(item.id)} <span class='muted'>({kind})</span> "
        f"{esc(item.description)}: {esc(detail)}</li>"
    )


def _stages(stages: list[StageResult]) -> str:
    if not stages:
        return '<section id="stages"><h2>Stages</h2><p>None: no stage was walked.</p></section>'
    rows = "".join(
        f"<tr><td>{s.stage.value}</td><td>{esc(s.title)}</td><td>{_badge(s.verdict or 'open')}"
        f"</td><td>{esc(one_line(stage_reason(s), 160))}</td></tr>"
        for s in stages
    )
    parts = [
        '<section id="stages"><h2>Stages</h2>',
        f"<table><tr><th>#</th><th>Stage</th><th>Verdict</th><th>Reason</th></tr>{rows}</table>",
    ]
    for s in stages:
        refs = f" (findings: {esc(', '.join(s.finding_ids))})" if s.finding_ids else ""
        checks = "".join(_check(c) for c in s.checklist) or "<li>none: no checklist items</li>"
        parts.append(
            f'<h3 id="stage-{s.stage.value}">Stage {s.stage.value}: {esc(s.title)} '
            f"{_badge(s.verdict or 'open')}</h3><p>{esc(stage_reason(s))}{refs}</p>"
            f'<ul class="checks">{checks}</ul>'
        )
    parts.append("</section>")
    return "".join(parts)


def _observation(obs: Observation) -> str:
    text = f'<li><span class="src">{esc(obs.source)}</span> {esc(obs.text)}'
    if values := obs.reported_values:
        text += " (" + ", ".join(f"{esc(k)}={esc(fmt_value(v))}" for k, v in values.items()) + ")"
    if obs.where is not None:
        text += f", at {_code(str(obs.where))}"
    return text + "</li>"


def _where(f: Finding) -> str:
    loc = f.location
    return _code(str(loc)) if loc is not None else esc(where_text(f))


def _finding(f: Finding, is_root: bool) -> str:
    root = ""
    if is_root:
        root = " (root cause)" if f.status == "confirmed" else " (suspected root cause)"
    evidence = "".join(_observation(o) for o in f.evidence) or "<li>none recorded</li>"
    cat_title = category_title(f.category)  # shown only when the title does not repeat it
    cat_note = f" {esc(cat_title)}" if cat_title != f.title else ""
    rows = [
        ("Category", _code(f.category) + cat_note),
        ("Stage", f"{f.stage.value} {esc(f.stage.title)}"),
        ("Status", _badge(f.status)),
        ("Confidence", esc(f.confidence)),
        ("Where", _where(f)),
        ("Observed evidence", f"<ul>{evidence}</ul>"),
    ]
    for r in f.revisions:
        on = f" on {', '.join(r.evidence_ids)}" if r.evidence_ids else ""
        change = (
            f"{r.status_from} -> {r.status_to}"
            if r.status_from != r.status_to
            else (f"evidence added ({r.status_to})")
        )
        note = f": {r.note}" if r.note else ""
        rows.append(("Revised by", f"{_code(r.by or 'unknown')}, {esc(change + on + note)}"))
    if f.notes:
        rows.append(("Notes (the recorder's reasoning, not evidence)", esc(f.notes)))
    if f.status == "refuted":
        rows.append(("Why it was suspected", esc(f.why)))
    else:
        rows.append(("Why it breaks learning", esc(f.why)))
        rows.append(("Smallest test or change that confirms it", esc(f.confirm)))
    if f.detector:
        rows.append(("Detector", _code(f.detector)))
    if f.recorded_by.startswith(("review:", "llm:", "chat")):
        rows.append(("Recorded by", _code(f.recorded_by)))
    body = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    return (
        f'<div class="finding {esc(f.status)}" id="finding-{esc(f.id)}">'
        f"<h3>{esc(f.id or '(no id)')}: {esc(f.title)}{root}</h3><dl>{body}</dl></div>"
    )


def _findings(v: ReportView) -> str:
    rc = v.report.root_cause
    body = "".join(
        _finding(f, bool(rc) and f.id == rc)
        if f is not v.root
        else f'<p class="muted"><a href="#finding-{esc(f.id)}">{esc(f.id)}</a>, the root cause, '
        "is shown at the top of the page.</p>"
        for f in v.findings
    )
    return f'<section id="findings"><h2>Findings</h2>{body or "<p>None: no finding was recorded.</p>"}</section>'


def _finding_list(findings: list[Finding], none: str, suspected: Finding | None = None) -> str:
    if not findings:
        return f"<p>{none}</p>"
    items = "".join(
        f'<li><a href="#finding-{esc(f.id)}"><b>{esc(f.id)}</b></a> {esc(f.title)}: {_where(f)} '
        f"(stage {f.stage.value}, confidence {esc(f.confidence)}"
        + ("; suspected root cause, not confirmed" if f is suspected else "")
        + ")</li>"
        for f in findings
    )
    return f"<ul>{items}</ul>"


def _conclusions(v: ReportView) -> str:
    a = ""
    if v.root is not None:
        a = f"<p><b>{esc(v.root.id)}: {esc(v.root.title)}</b> {_where(v.root)}</p>"
    a += "".join(f"<p>{esc(p)}</p>" for p in v.root_statement.split("\n\n"))
    d = "<p>None: no experiment is proposed.</p>"
    if v.experiments:
        d = (
            "<ol>"
            + "".join(
                f'<li value="{e.order if e.order > 0 else n}"><b>{esc(e.description)}</b> '
                f"[{esc(e.kind)}, information value {fmt_num(e.information_value)}]"
                + (f" (findings {esc(', '.join(e.finding_ids))})" if e.finding_ids else "")
                + f". Distinguishes: {esc(e.distinguishes)}</li>"
                for n, e in enumerate(v.experiments, 1)
            )
            + "</ol>"
        )
    e = "<p>None: no change is held back.</p>"
    if v.not_yet:
        e = (
            "<ul>"
            + "".join(
                f"<li><b>{esc(n.change)}</b> [{esc(n.kind)}]: {esc(sentence(n.reason))} Blocked by: "
                f"{esc(', '.join(n.blocked_by) or 'no finding named')}.</li>"
                for n in v.not_yet
            )
            + "</ul>"
        )
    return (
        f'<section id="section-a"><h2>A. Most likely root cause</h2>{a}</section>'
        '<section id="section-b"><h2>B. Confirmed defects</h2>'
        + _finding_list(v.confirmed, "None: no defect was confirmed by runtime evidence.")
        + '</section><section id="section-c"><h2>C. Plausible but unproven causes</h2>'
        + _finding_list(v.plausible, "None: no unproven suspicion remains.", v.suspected)
        + '</section><section id="section-d"><h2>D. Experiments to run next, ordered by '
        f"information value</h2>{d}</section>"
        f'<section id="section-e"><h2>E. Changes NOT to attempt yet</h2>{e}</section>'
    )


def _full_title(run: RunSummary) -> str:
    """Under the run's short name (the plot legend's), its changes in full."""
    if not run.interventions:
        return ""
    return f'<br><span class="muted">{esc(run_title(run))}</span>'


def _runs(report: Report) -> str:
    if not report.runs:
        return (
            '<section id="runs"><h2>Runs</h2><p>None: the training path was not run.</p></section>'
        )
    head = "".join(
        f"<th>{h}</th>"
        for h in ("Run", "Status", "Steps", "First loss", "Settled loss",
                  "As written, same steps", "Wall time")
    )  # fmt: skip
    rows = []
    for r in report.runs:
        n = run_numbers(report, r)
        same = "—"
        if n.compared_steps is not None:
            same = f"{fmt_num(n.baseline_settled)} ({n.compared_steps} steps)"
        rows.append(
            f"<tr><td>{esc(run_name(r))}{_full_title(r)}</td><td>{esc(r.status)}</td>"
            f"<td class='num'>{r.steps}</td><td class='num'>{fmt_num(n.first)}</td>"
            f"<td class='num'>{fmt_num(n.settled)}</td><td class='num'>{esc(same)}</td>"
            f"<td class='num'>{fmt_seconds(r.wall_s)}</td></tr>"
        )
        if r.message:
            rows.append(f"<tr><td></td><td colspan='6' class='muted'>{esc(r.message)}</td></tr>")
    return (
        f'<section id="runs"><h2>Runs</h2><table><tr>{head}</tr>{"".join(rows)}</table>'
        f'<p class="muted">{esc(STATISTICS_NOTE)}</p></section>'
    )


def _git(report: Report) -> str:
    git = report.git
    if git is None or not git.is_repo:
        text = "Not read." if git is None else "Not a git repository."
        return f'<section id="git"><h2>Git</h2><p>{text}</p></section>'
    dirty = ", ".join(_code(p) for p in git.dirty) or "none"
    commits = "".join(
        f"<li>{_code(c.sha[:10])} {esc(c.date)} {esc(c.author)}: {esc(c.summary)}"
        + (f" ({', '.join(_code(p) for p in c.files)})" if c.files else "")
        + "</li>"
        for c in git.recent_commits
    )
    return (
        f'<section id="git"><h2>Git</h2><p>HEAD {_code(git.head or "unknown")} on '
        f"{_code(git.branch or 'detached')}</p><p>Uncommitted changes: {dirty}</p>"
        "<p>Recent commits touching the training path:"
        + (f"</p><ul>{commits}</ul>" if commits else " none</p>")
        + "</section>"
    )


def _tail(report: Report) -> str:
    out = ""
    if report.notes:
        out += '<section id="notes"><h2>Notes</h2><ul>'
        out += "".join(f"<li>{esc(n)}</li>" for n in report.notes) + "</ul></section>"
    if report.llm is not None:
        u = report.llm
        cost = f", cost ${u.cost_usd:.4g}" if u.cost_usd is not None else ""
        out += (
            f'<section id="llm"><h2>LLM usage</h2><p>model {_code(u.model)}: {u.steps} steps, '
            f"{u.prompt_tokens} prompt (tool schemas included, about {u.schema_tokens} a "
            f"request) + {u.completion_tokens} completion tokens{esc(cost)}, "
            f"{u.refusals} refused by guardrails</p></section>"
        )
    return out


def to_html(report: Report) -> str:
    v = view(report)
    body = "".join(
        [
            f"<h1>torch-investigate: {esc(report.repo)}</h1>",
            _answer(v),
            _header(report),
            _plots(report),
            _stages(report.stages),
            _findings(v),
            _conclusions(v),
            html_section(report.patches),
            _runs(report),
            _git(report),
            _tail(report),
        ]
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>torch-investigate: {esc(report.repo)}</title><style>{_CSS}</style></head>"
        f"<body><main>{body}</main></body></html>\n"
    )
