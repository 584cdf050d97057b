"""The bisect result for people: when (the table of probed commits and the first bad
commit with its diff stat), then why (the full investigation report of that commit).

JSON is the record itself (`BisectReport.model_dump_json`), with the investigation
embedded in the same schema as `investigate -f json`.
"""

from __future__ import annotations

from torch_investigate.agent.bisect.records import BisectReport, Probe
from torch_investigate.agent.render._format import fmt_num, fmt_seconds, one_line
from torch_investigate.agent.render.markdown import cell, code, md, to_markdown
from torch_investigate.tools.records import CommitDetail

_STATUS = {"reference": "good (reference)", "good": "good", "bad": "BAD", "skipped": "skipped"}
_MAX_FILES = 30


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return lines + ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]


def _header(r: BisectReport) -> list[str]:
    title = f"first bad commit {r.first_bad[:10]}" if r.first_bad else "no first bad commit named"
    return [
        f"# torch-investigate bisect: {title}",
        "",
        f"- **Repo:** {md(r.repo)}",
        f"- **Range:** {code(r.good[:10])}..{code(r.bad[:10])} "
        f"({r.commits} first-parent commits after good, bad included)",
        f"- **Command:** {code(r.command)} (from {md(r.command_source)}), "
        f"{r.steps} traced steps, {fmt_seconds(r.timeout_s)} per run",
        f"- **Runs:** {r.runs} commits run (the good one included)",
        f"- **Conclusion:** {code(r.conclusion)}: {md(one_line(r.conclusion_text))}",
        f"- **Rule:** {md(r.rule)}",
    ]


def _row(p: Probe, run: int) -> list[str]:
    limit = p.margin.good + p.margin.margin if p.margin else None
    compared = f"{fmt_num(limit)} ({p.margin.metric})" if p.margin else "—"
    return [
        str(p.position),
        str(run),
        code(p.sha[:10]),
        md(p.subject),
        _STATUS[p.status],
        fmt_num(p.train.settled) if p.train else "—",
        fmt_num(p.eval.settled) if p.eval else "—",
        compared,
        code(p.symptom) if p.symptom else "—",
        md(p.reason),
    ]


def _probes(r: BisectReport) -> list[str]:
    header = ["#", "run", "commit", "subject", "status", "train loss", "eval loss", "limit",
              "symptom", "why"]  # fmt: skip
    runs = sorted(enumerate(r.probes, start=1), key=lambda item: item[1].position)
    rows = [_row(p, run) for run, p in runs]
    return [
        "## Probed commits (in history order; # = position after good, run = order run)",
        "",
        *_table(header, rows),
    ]


def _commit(c: CommitDetail) -> list[str]:
    lines = [
        f"## First bad commit {code(c.sha)}",
        "",
        f"- **Subject:** {md(c.subject)}",
        f"- **Author:** {md(c.author)}, {md(c.date)}",
        f"- **Diff stat:** {len(c.files)} file{'s' if len(c.files) != 1 else ''}, "
        f"+{c.insertions} -{c.deletions}",
        "",
        "```",
        *[line.replace("```", "`\u200b``") for line in c.message.rstrip().splitlines()],
        "```",
        "",
    ]
    rows = [[code(f.path), f"+{f.insertions}", f"-{f.deletions}"] for f in c.files[:_MAX_FILES]]
    lines += _table(["file", "added", "removed"], rows)
    if len(c.files) > _MAX_FILES:
        lines.append(f"\n({len(c.files) - _MAX_FILES} more files not shown)")
    return lines


def to_bisect_markdown(r: BisectReport) -> str:
    parts = [_header(r), _probes(r)]
    if r.candidates:
        parts.append(["## Candidates", "", *[f"- {code(s)}" for s in r.candidates]])
    if r.first_bad_commit is not None:
        parts.append(_commit(r.first_bad_commit))
    if r.notes:
        parts.append(["## Notes", "", *[f"- {md(one_line(n))}" for n in r.notes]])
    lines: list[str] = []
    for part in parts:
        lines += [*part, ""]
    text = "\n".join(lines)
    if r.investigation is not None:
        text += "\n---\n\n" + to_markdown(r.investigation)
    return text.rstrip() + "\n"


def to_bisect_json(r: BisectReport) -> str:
    return r.model_dump_json(indent=2)
