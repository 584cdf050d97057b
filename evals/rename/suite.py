"""A whole suite rewritten: every case renamed (and restyled, on request) into a new
suite folder whose manifest carries each case's ground truth, alternatives and command
through the case's rename table. Ids stay in the manifest; the case folders get neutral
names (`cases/case007`), since a folder named after its id names the seeded category.
What a case's tables say is kept beside the manifest in `rename.json`.

The output is a function of the input: the same suite gives the same files, so the
benchmark's cache (keyed by a case's content) is reused across runs.
"""

from __future__ import annotations

import copy
import json
import shutil
import sys
import traceback
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from torch_investigate.evals.rename.table import RenameTable
from torch_investigate.evals.seeding.records import MANIFEST, Manifest, Template

Variant = Literal["rename", "restyle"]
RECORD = "rename.json"
TEMPLATES = Path(__file__).resolve().parent.parent / "repos"


class CaseRewrite(BaseModel):
    id: str
    command: str | None  # the rewritten command (None: unknown for this case)
    original_command: str | None
    table: RenameTable | None = None
    restyle: list[str] = Field(default_factory=list)  # what the restyle did, one line each
    error: str = ""  # the renamer failed: the case was copied unchanged


class SuiteRewrite(BaseModel):
    source: str
    variant: Variant
    cases: list[CaseRewrite] = Field(default_factory=list)

    @classmethod
    def load(cls, folder: Path) -> SuiteRewrite:
        return cls.model_validate_json((folder / RECORD).read_text(encoding="utf-8"))

    def case(self, case_id: str) -> CaseRewrite | None:
        return next((c for c in self.cases if c.id == case_id), None)


def case_command(suite: Path, entry: dict[str, Any]) -> str | None:
    """The command a case runs with: its manifest's, else its template's."""
    if entry.get("command"):
        return str(entry["command"])
    template = entry.get("template")
    for base in (suite, *suite.resolve().parents[:3]):
        folder = base / "repos" / str(template)
        if (folder / "template.json").is_file():
            return "python " + " ".join(Template.load(folder).command)
    if (TEMPLATES / str(template) / "template.json").is_file():
        return "python " + " ".join(Template.load(TEMPLATES / str(template)).command)
    return None


def rewrite_suite(
    suite: Path, out: Path, *, variant: Variant = "rename", progress: bool = True
) -> SuiteRewrite:
    """Write the rewritten suite to `out` (replaced if it exists) and return its record."""
    from torch_investigate.evals.rename.restyle import restyle_repo
    from torch_investigate.evals.rename.rewrite import rename_repo

    Manifest.load(suite)  # the input is a suite manifest
    raw = json.loads((suite / MANIFEST).read_text(encoding="utf-8"))
    if out.exists():
        shutil.rmtree(out)
    (out / "cases").mkdir(parents=True)
    record = SuiteRewrite(source=str(suite), variant=variant)
    entries = [("cases", e) for e in raw.get("cases", [])] + [
        ("controls", e) for e in raw.get("controls", [])
    ]
    new_raw = copy.deepcopy(raw)
    new_raw["generated_by"] = f"{raw.get('generated_by', '')}; then --{variant}"
    new_raw["cases"], new_raw["controls"] = [], []
    for n, (kind, entry) in enumerate(entries, start=1):
        folder = (suite / entry["path"]).resolve()
        # a neutral folder: the id names the seeded category, and the folder's name
        # reaches the investigator (an LLM's briefing names the repo by it)
        target = out / "cases" / f"case{n:03d}"
        command = case_command(suite, entry)
        rewrite = CaseRewrite(id=entry["id"], command=command, original_command=command)
        new = copy.deepcopy(entry)
        new["path"] = f"cases/{target.name}"
        try:
            table = rename_repo(folder, target, [command] if command else [])
            lines = None
            if variant == "restyle":
                truths = [(table.file(t["file"]), t["line"]) for t in _places(entry)]
                rewrite.restyle, lines = restyle_repo(target, truths)
            rewrite.table = table
            rewrite.command = table.command(command) if command else None
            _map_truth(new, table, lines)
        except Exception as e:  # noqa: BLE001 - a renamer bug: keep the case as it was
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(folder, target)
            rewrite.error = f"{type(e).__name__}: {e}"
            if progress:
                traceback.print_exc()
        if rewrite.command is not None:
            new["command"] = rewrite.command
        new_raw[kind].append(new)
        record.cases.append(rewrite)
        if progress:
            note = rewrite.error or _summary(rewrite)
            print(f"[{n}/{len(entries)}] {entry['id']}: {note}", file=sys.stderr)
    (out / MANIFEST).write_text(json.dumps(new_raw, indent=2) + "\n", encoding="utf-8")
    (out / RECORD).write_text(record.model_dump_json(indent=1) + "\n", encoding="utf-8")
    Manifest.load(out)
    return record


def _places(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The ground truth and its alternatives (mutable: the entry's own dicts)."""
    return ([entry["truth"]] if "truth" in entry else []) + list(entry.get("alternatives", []))


def _map_truth(entry: dict[str, Any], table: RenameTable, lines: Any) -> None:  # noqa: ANN401
    for truth in _places(entry):
        file, symbol = truth["file"], truth["symbol"]
        truth["symbol"] = table.symbol(file, symbol)
        truth["file"] = table.file(file)
        if lines is not None:
            lines.map(truth)


def _summary(r: CaseRewrite) -> str:
    t = r.table
    if t is None:
        return "-"
    renamed = ", ".join(f"{k} {v}/{t.defined.get(k, 0)}" for k, v in t.renamed.items())
    kept = sum(1 for k in t.kept if k.group != "local")
    extra = f"; restyle: {'; '.join(r.restyle)}" if r.restyle else ""
    return f"renamed {renamed}; {kept} kept{extra}"
