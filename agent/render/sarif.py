"""SARIF 2.1.0 for code scanning (GitHub, IDE viewers).

Decisions, each forced by how code scanning reads the file:
- Refuted findings are not results: an alert that says "this is fine" would sit
  open in a Security tab. Their ids are kept in `runs[0].properties.refutedFindings`.
- GitHub rejects the *whole* upload when one result has no location
  ("locationFromSarifResult: expected at least one location"). A finding with no
  file is therefore anchored, file-level (no region), to the training entry script
  and says so in its message; with no entry script either, it becomes a tool
  execution notification instead of a result. `github_compatible=False` emits
  plain location-less results, which the SARIF spec itself allows.
- `region.startLine` only when the line is known: a file-level location is valid,
  an invented line 1 would point at the wrong code.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import quote

from torch_investigate.agent.core.answer import summary_of
from torch_investigate.agent.render._format import one_line
from torch_investigate.agent.render._patches import sarif_fixes
from torch_investigate.agent.render._sections import view
from torch_investigate.tools.records import Finding, Report
from torch_investigate.tools.taxonomy import OTHER, taxonomy

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
TOOL_NAME = "torch-investigate"
SRCROOT = "%SRCROOT%"
# Versioned so a change in what identifies a finding never silently merges alerts.
FINGERPRINT_KEY = "torchInvestigate/v1"
LEVELS = {"confirmed": "error", "plausible": "warning"}

SarifObject = dict[str, Any]


def artifact_uri(path: str) -> str:
    """Repo-relative, forward slashes, percent-encoded (a URI reference, not a path)."""
    clean = path.replace("\\", "/")
    while clean.startswith("./"):
        clean = clean[2:]
    return quote(clean.lstrip("/"), safe="/")


def _entry_script(report: Report) -> str | None:
    """The training script a location-less finding is anchored to, if one ran or was chosen."""
    if report.command is None:
        return None
    argv = report.command.argv
    if argv and argv[0].endswith(".py"):
        return argv[0]
    return None


def _rule(category: str, stage: int) -> SarifObject:
    if category == OTHER:
        title = "defect outside the taxonomy (each result carries its own title)"
        confirm = "Each result's properties.confirm names the smallest test that confirms it."
    else:
        entry = taxonomy().category(category)
        title, confirm, stage = entry.title, entry.confirm, entry.stage
    return {
        "id": category,
        "name": "".join(part.capitalize() for part in category.split("_")),
        "shortDescription": {"text": title},
        "help": {"text": confirm},
        "defaultConfiguration": {"level": "warning"},
        "properties": {
            "stage": stage,
            "tags": ["pytorch", "learning-failure", f"stage-{stage}"],
        },
    }


def _message(f: Finding, anchored_to: str | None) -> str:
    parts = [f.title.rstrip(".") + "."]
    if anchored_to:
        parts.append(f"(No single source line: reported at the training entry {anchored_to}.)")
    if f.evidence:
        # The first runtime observation when there is one: it is what an alert's
        # reader needs to see to trust a confirmed finding.
        first = next((o for o in f.evidence if o.is_dynamic), f.evidence[0])
        more = f" (+{len(f.evidence) - 1} more observations)" if len(f.evidence) > 1 else ""
        parts.append(f"Evidence [{first.source}]: {one_line(first.text)}{more}.")
    parts.append(f"Why: {one_line(f.why)}")
    return " ".join(parts)


def _fingerprint(f: Finding) -> str:
    # Line numbers are left out on purpose: they move with unrelated edits.
    ident = "|".join(
        [f.category, f.file or "", f.symbol or "", f.title if f.category == OTHER else ""]
    )
    return hashlib.sha256(ident.encode()).hexdigest()[:32]


def _location(file: str, line: int | None, symbol: str | None) -> SarifObject:
    physical: SarifObject = {"artifactLocation": {"uri": artifact_uri(file), "uriBaseId": SRCROOT}}
    if line is not None and line >= 1:
        physical["region"] = {"startLine": line}
    location: SarifObject = {"physicalLocation": physical}
    if symbol:
        location["logicalLocations"] = [
            {"name": symbol.rsplit(".", 1)[-1], "fullyQualifiedName": symbol}
        ]
    return location


def _properties(f: Finding, root_cause: str | None) -> SarifObject:
    props: SarifObject = {
        "findingId": f.id,
        "category": f.category,
        "status": f.status,
        "confidence": f.confidence,
        "stage": int(f.stage),
        "stageTitle": f.stage.title,
        "confirm": f.confirm,
        "evidenceSources": sorted({o.source for o in f.evidence}),
        "rootCause": bool(root_cause) and f.id == root_cause,
    }
    if f.detector:
        props["detector"] = f.detector
    if f.recorded_by:
        props["recordedBy"] = f.recorded_by
    if f.revised_by:
        props["revisedBy"] = f.revised_by
    return props


def sarif_log(report: Report, *, github_compatible: bool = True) -> SarifObject:
    v = view(report)
    summary = summary_of(report)
    reported = [f for f in v.findings if f.status != "refuted"]
    anchor = _entry_script(report)
    rules: list[SarifObject] = []
    rule_index: dict[str, int] = {}
    results: list[SarifObject] = []
    notifications: list[SarifObject] = []
    seen: dict[str, int] = {}

    for f in reported:
        if f.category not in rule_index:
            rule_index[f.category] = len(rules)
            rules.append(_rule(f.category, int(f.stage)))
        anchored_to = anchor if f.file is None and github_compatible else None
        if f.file is None and github_compatible and anchored_to is None:
            notifications.append(
                {
                    "level": LEVELS[f.status],
                    "message": {"text": _message(f, None)},
                    "descriptor": {"id": f.category},
                    "properties": _properties(f, report.root_cause),
                }
            )
            continue
        fp = _fingerprint(f)
        seen[fp] = seen.get(fp, 0) + 1
        result: SarifObject = {
            "ruleId": f.category,
            "ruleIndex": rule_index[f.category],
            "kind": "fail",
            "level": LEVELS[f.status],
            "message": {"text": _message(f, anchored_to)},
            "partialFingerprints": {FINGERPRINT_KEY: f"{fp}:{seen[fp]}"},
            "properties": _properties(f, report.root_cause),
        }
        fixes = [
            x for p in report.patches if p.finding == f.id for x in sarif_fixes(p, artifact_uri)
        ]
        if fixes:  # `investigate fix`: the verified patch, for code-scanning views
            result["fixes"] = fixes
        if f.file is not None:
            result["locations"] = [_location(f.file, f.line, f.symbol)]
        elif anchored_to is not None:
            result["locations"] = [_location(anchored_to, None, f.symbol)]
            result["properties"]["anchoredToEntry"] = True
        results.append(result)

    driver: SarifObject = {"name": TOOL_NAME, "rules": rules}
    if report.tool_version:
        driver["version"] = report.tool_version
    invocation: SarifObject = {"executionSuccessful": True}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    run: SarifObject = {
        "tool": {"driver": driver},
        "invocations": [invocation],
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {
            "repo": report.repo,
            "schemaVersion": report.schema_version,
            "conclusion": report.conclusion,
            "conclusionReason": report.conclusion_reason,
            "summary": summary.headline,
            "verdict": summary.verdict,
            "rootCause": report.root_cause,
            "symptom": report.symptom,
            "refutedFindings": [f.id for f in v.refuted],
        },
    }
    return {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def to_sarif(report: Report, *, github_compatible: bool = True) -> str:
    # allow_nan=False: SARIF is strict JSON; a NaN here is a bug, not a value.
    return json.dumps(
        sarif_log(report, github_compatible=github_compatible), indent=2, allow_nan=False
    )
