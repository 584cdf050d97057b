"""The Patches section (`investigate fix`), in every format: what each patch changes, the
diff, whether rerunning the training path verified it, and the numbers before and after.

Markdown and HTML show verified and unverified patches with their diffs and list dropped
ones in a line each; SARIF attaches a verified patch to its finding's result as a `fix`
with `artifactChanges`, so code-scanning views offer the change; JSON is the record.
"""

from __future__ import annotations

from html import escape

from torch_investigate.agent.fix.diff import replacements
from torch_investigate.agent.render import _svg
from torch_investigate.agent.render._format import fmt_num, one_line
from torch_investigate.tools.fix_records import Patch, PatchRun

INTRO = (
    "Each patch was applied to a fresh copy of the repo and the same bounded training "
    "rerun (same command, seed and steps); it is verified only when the defect is no "
    "longer confirmed, no new one is, and learning recovers. The repo itself is changed "
    "only by `investigate fix --apply`."
)
STATUS_WORD = {"verified": "verified", "unverified": "not verified", "dropped": "dropped"}


def _where(p: Patch) -> str:
    if not p.files:
        return ""
    return f"{p.files[0]}:{p.line}" if p.line else p.files[0]


def _run_numbers(run: PatchRun | None) -> str:
    if run is None:
        return "no run"
    parts = [f"{run.status}, {run.steps} steps"]
    if run.first_loss is not None or run.settled_loss is not None:
        parts.append(f"loss {fmt_num(run.first_loss)} -> {fmt_num(run.settled_loss)}")
    if run.eval_loss is not None:
        parts.append(f"eval loss {fmt_num(run.eval_loss)}")
    parts += [f"{k} {fmt_num(v)}" for k, v in sorted(run.metrics.items())]
    return ", ".join(parts)


def _by(p: Patch) -> str:
    return (
        "a mechanical edit by the planner"
        if p.origin == "mechanical"
        else f"proposed by the model {p.proposed_by}"
    )


# ---- Markdown --------------------------------------------------------------------------


def markdown_lines(patches: list[Patch], md, code) -> list[str]:
    """The section for `to_markdown` (md/code are its escaping helpers)."""
    if not patches:
        return []
    lines = ["## Patches", "", md(INTRO), ""]
    verified = sum(p.verified for p in patches)
    lines += [f"{verified} of {len(patches)} patches verified.", ""]
    shown = [p for p in patches if p.status != "dropped"]
    for p in shown:
        at = f" at {code(_where(p))}" if _where(p) else ""
        lines += [f"### {p.id} ({STATUS_WORD[p.status]}): {code(p.category)} ({p.finding}){at}", ""]
        lines.append(f"- Change: {md(one_line(p.change))} ({_by(p)})")
        lines.append(f"- {'Verified' if p.verified else 'Not verified'}: {md(one_line(p.reason))}")
        if p.criterion:
            lines.append(f"- Learning recovers when: {md(p.criterion)}")
        lines.append(f"- As written: {md(_run_numbers(p.before))}")
        lines.append(f"- Patched: {md(_run_numbers(p.after))}")
        if p.applied:
            lines.append(f"- Applied to the repo: {', '.join(code(f) for f in p.files)}")
        fence = "````" if "```" in p.diff else "```"
        lines += ["", f"{fence}diff", p.diff.rstrip("\n"), fence, ""]
    dropped = [p for p in patches if p.status == "dropped"]
    if dropped:
        lines += ["Dropped (not offered):", ""]
        lines += [
            f"- {p.id} {code(p.category)} ({p.finding}): {md(one_line(p.change))}: {md(one_line(p.reason))}"
            for p in dropped
        ]
    return lines


# ---- HTML ------------------------------------------------------------------------------


def _esc(text: object) -> str:
    return escape(str(text), quote=True)


def html_section(patches: list[Patch]) -> str:
    if not patches:
        return ""
    parts = [f'<section id="patches"><h2>Patches</h2><p class="muted">{_esc(INTRO)}</p>']
    for p in patches:
        if p.status == "dropped":
            continue
        where = f" at <code>{_esc(_where(p))}</code>" if _where(p) else ""
        rows = [
            ("Change", f"{_esc(p.change)} ({_esc(_by(p))})"),
            ("Verified" if p.verified else "Not verified", _esc(p.reason)),
            ("Learning recovers when", _esc(p.criterion or "-")),
            ("As written", _esc(_run_numbers(p.before))),
            ("Patched", _esc(_run_numbers(p.after))),
        ]
        if p.applied:
            rows.append(("Applied to the repo", _esc(", ".join(p.files))))
        body = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
        series = [
            _svg.Series(label="as written", values=_finite(p.before), baseline=True),
            _svg.Series(label=f"with {p.id}", values=_finite(p.after)),
        ]
        chart = _svg.line_chart(
            f"plot-patch-{_esc(p.id)}", f"Loss before and after {p.id}", series,
            x_label="optimizer step", y_label="loss", height=240,
        )  # fmt: skip
        parts.append(
            f'<div class="patch {_esc(p.status)}" id="patch-{_esc(p.id)}">'
            f"<h3>{_esc(p.id)} ({_esc(STATUS_WORD[p.status])}): <code>{_esc(p.category)}</code> "
            f'(<a href="#finding-{_esc(p.finding)}">{_esc(p.finding)}</a>){where}</h3>'
            f'<dl>{body}</dl><figure>{chart}</figure><pre class="diff">{_diff_html(p.diff)}</pre></div>'
        )
    dropped = [p for p in patches if p.status == "dropped"]
    if dropped:
        items = "".join(
            f"<li>{_esc(p.id)} <code>{_esc(p.category)}</code> ({_esc(p.finding)}): "
            f"{_esc(p.change)}: {_esc(p.reason)}</li>"
            for p in dropped
        )
        parts.append(f"<p>Dropped (not offered):</p><ul>{items}</ul>")
    parts.append("</section>")
    return "".join(parts)


def _finite(run: PatchRun | None) -> list[float]:
    return [v for v in (run.losses if run else []) if v is not None]


def _diff_html(diff: str) -> str:
    out = []
    for line in diff.splitlines():
        cls = (
            "add"
            if line.startswith("+") and not line.startswith("+++")
            else ("del" if line.startswith("-") and not line.startswith("---") else "")
        )
        out.append(f'<span class="{cls}">{_esc(line)}</span>' if cls else _esc(line))
    return "\n".join(out)


# ---- SARIF -----------------------------------------------------------------------------


def sarif_fixes(patch: Patch, uri) -> list[dict]:
    """A verified patch as SARIF `fixes` (one fix, one artifactChange per file); `uri`
    maps a repo path to the artifact URI the results use."""
    if not patch.verified:
        return []
    changes: dict[str, list[dict]] = {}
    for r in replacements(patch.diff):
        region: dict = {"startLine": r.start, "startColumn": 1}
        if r.deleted:
            region.update(endLine=r.start + r.deleted, endColumn=1)
        else:
            region.update(endLine=r.start, endColumn=1)
        changes.setdefault(r.file, []).append(
            {"deletedRegion": region, "insertedContent": {"text": r.inserted}}
        )
    if not changes:
        return []
    return [
        {
            "description": {"text": f"{patch.id} (verified): {patch.change}"},
            "artifactChanges": [
                {"artifactLocation": {"uri": uri(file)}, "replacements": reps}
                for file, reps in changes.items()
            ],
        }
    ]
