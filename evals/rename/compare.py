"""A benchmark of a rewritten suite beside the original's: the scores side by side, and
every case whose verdict (conclusion, root-cause category) or root-cause file changed.
A case that changed is a name-dependence (or a structure-dependence, for --restyle)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from torch_investigate.evals.benchmark.records import BenchResult, Run, Summary
from torch_investigate.evals.benchmark.scoring import parse_report
from torch_investigate.evals.rename.suite import SuiteRewrite
from torch_investigate.evals.rename.table import RenameTable


class Verdict(BaseModel):
    """What a report concluded, in the original's names (files and symbols mapped back
    through the case's rename table for the rewritten suite)."""

    conclusion: str = ""
    category: str | None = None  # the root cause's
    file: str | None = None
    symbol: str | None = None
    line: int | None = None
    status: str | None = None
    error: str = ""

    def said(self) -> str:
        if self.error:
            return f"no report ({self.error})"
        if self.category is None:
            return self.conclusion or "no conclusion"
        return f"{self.conclusion}: {self.status} {self.category} at {self.file}:{self.line} ({self.symbol})"


class CaseChange(BaseModel):
    id: str
    what: list[str]  # "conclusion", "root-cause category", "root-cause file", "top-1", ...
    original: Verdict
    rewritten: Verdict  # in the original's names
    rewritten_as_written: str = ""  # the rewritten report's own root cause


class Row(BaseModel):
    """One score of the two suites."""

    name: str
    original: float | int | None
    rewritten: float | int | None


class VariantResult(BaseModel):
    variant: str
    suite: str
    rewritten_suite: str
    original: BenchResult
    rewritten: BenchResult
    rows: list[Row] = Field(default_factory=list)
    changed: list[CaseChange] = Field(default_factory=list)
    rewrite_errors: list[str] = Field(default_factory=list)  # cases the renamer left as is
    renamed: dict[str, int] = Field(default_factory=dict)  # spellings renamed per group
    defined: dict[str, int] = Field(default_factory=dict)
    kept: dict[str, int] = Field(default_factory=dict)  # reason -> spellings kept
    restyled: dict[str, int] = Field(default_factory=dict)  # what the restyle did -> cases


ROWS = (
    ("top-1", "top1"),
    ("detection", "detection_recall"),
    ("confirmed", "confirmed_recall"),
    ("symbol", "symbol_accuracy"),
    ("false alarms", "false_alarms"),
    ("false alarms on clean controls", "false_alarms_clean"),
    ("false alarms of another category", "false_alarms_buggy"),
    ("guardrail violations", "guardrail_violations"),
    ("errors", "errors"),
)


def rows(original: Summary, rewritten: Summary) -> list[Row]:
    return [Row(name=n, original=getattr(original, a), rewritten=getattr(rewritten, a))
            for n, a in ROWS]  # fmt: skip


def verdict(run: Run | None, table: RenameTable | None = None) -> Verdict:
    """The report's conclusion and root cause; with `table`, named as in the original."""
    if run is None:
        return Verdict(error="not run")
    report = parse_report(run)
    if report is None:
        return Verdict(error=run.error or "no report")
    v = Verdict(conclusion=report.conclusion or "")
    root = report.finding(report.root_cause) if report.root_cause else None
    if root is not None:
        v.category, v.status, v.line = root.category, root.status, root.line
        v.file, v.symbol = root.file, root.symbol
        if table is not None and root.file is not None:
            back = {new: old for old, new in table.files.items()}
            old_file = back.get(root.file, root.file)
            v.file = old_file
            if root.symbol:
                v.symbol = _symbol_back(table, old_file, root.symbol)
    return v


def _symbol_back(table: RenameTable, file: str, symbol: str) -> str:
    for old, new in table.symbols.get(file, {}).items():
        if new == symbol:
            return old
    return symbol


def changes(
    original: dict[str, Run],
    rewritten: dict[str, Run],
    record: SuiteRewrite,
    orig_result: BenchResult,
    new_result: BenchResult,
) -> list[CaseChange]:
    """Cases whose conclusion, root-cause category or file moved (or whose top-1 did)."""
    out = []
    scores = {s.id: s for s in orig_result.cases}
    new_scores = {s.id: s for s in new_result.cases}
    for case_id, run in original.items():
        rewrite = record.case(case_id)
        table = rewrite.table if rewrite is not None else None
        before = verdict(run)
        after = verdict(rewritten.get(case_id), table)
        what = []
        if before.conclusion != after.conclusion:
            what.append("conclusion")
        if before.category != after.category:
            what.append("root-cause category")
        elif before.file != after.file:
            what.append("root-cause file")
        a, b = scores.get(case_id), new_scores.get(case_id)
        if a is not None and b is not None:
            for flag in ("top1", "detected", "confirmed", "symbol_hit"):
                if getattr(a, flag) != getattr(b, flag):
                    what.append(f"{flag} {'lost' if getattr(a, flag) else 'gained'}")
            if len(a.false_alarms) != len(b.false_alarms):
                what.append(f"false alarms {len(a.false_alarms)} -> {len(b.false_alarms)}")
        if what:
            out.append(
                CaseChange(
                    id=case_id,
                    what=what,
                    original=before,
                    rewritten=after,
                    rewritten_as_written=verdict(rewritten.get(case_id)).said(),
                )  # fmt: skip
            )
    return out
