"""The records of the generated suite: templates, ground truth, verified cases and the
manifest that `python -m evals.seeding.generate` writes and the benchmark reads.

Invariants: every `file` is relative to the case folder with forward slashes; `line` is
1-based in the seeded copy; `symbol` is what `CodeIndex.enclosing_symbol` names there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MANIFEST = "manifest.json"
MANIFEST_VERSION = "1.0"

Direction = Literal["higher", "lower"]
# crash: the seeded copy raised (kept only for loud categories); degraded: the metric is
# worse than the template's healthy threshold; changed: it got worse by more than the
# margin but stayed on the healthy side; improved: it got better by more than the margin
# (kept only where that is the symptom: leakage); unchanged: dropped.
Effect = Literal["crash", "degraded", "changed", "improved", "unchanged"]
# A diverged run prints `METRIC weight_error=nan`: non-finite metrics are written as the
# strings "NaN"/"Infinity" so the JSON stays standard and reads back as floats.
NONFINITE_AS_STRINGS = ConfigDict(ser_json_inf_nan="strings")


class Template(BaseModel):
    """A clean template repo's `template.json`."""

    name: str
    command: list[str]  # argv without the interpreter
    metric: str
    direction: Direction
    healthy: float
    chance: float
    description: str = ""

    @classmethod
    def load(cls, folder: Path) -> Template:
        data = json.loads((folder / "template.json").read_text(encoding="utf-8"))
        return cls.model_validate(data)


class GroundTruth(BaseModel):
    category: str
    stage: int
    file: str
    symbol: str
    line: int


class MetricRun(BaseModel):
    """One plain run of a template's command in a temporary copy."""

    model_config = NONFINITE_AS_STRINGS

    value: float | None = None  # None when no METRIC line of the template's name came out
    returncode: int | None = None
    seconds: float = 0.0
    error: str = ""  # the last line of stderr when the run failed


class Case(BaseModel):
    model_config = NONFINITE_AS_STRINGS

    id: str  # `rings-missing_zero_grad`, `bars-metric_bug-2`
    path: str  # the seeded copy, relative to the suite folder
    template: str
    category: str
    stage: int
    loud: bool
    variant: str  # the operator's spelling and site, stable across regenerations
    change: str  # what was changed, file:line
    truth: GroundTruth
    # equivalent places to name the same defect (a config value and the line applying it)
    alternatives: list[GroundTruth] = Field(default_factory=list)
    metric: str
    direction: Direction
    healthy_metric: float | None  # measured on the clean template
    buggy_metric: float | None  # measured on the seeded copy (None: it crashed)
    effect: Effect


class CleanControl(BaseModel):
    model_config = NONFINITE_AS_STRINGS

    id: str  # `clean-rings`
    path: str
    template: str
    metric: str
    direction: Direction
    healthy_metric: float | None


class Manifest(BaseModel):
    version: str = MANIFEST_VERSION
    generated_by: str = "python -m evals.seeding.generate"
    cases: list[Case] = Field(default_factory=list)
    controls: list[CleanControl] = Field(default_factory=list)
    # categories no operator seeds in these templates, with the reason
    not_seeded: dict[str, str] = Field(default_factory=dict)
    # seedings that applied but were dropped: `template/category/variant` -> why
    dropped: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def load(cls, suite: Path) -> Manifest:
        return cls.model_validate_json((suite / MANIFEST).read_text(encoding="utf-8"))

    def write(self, suite: Path) -> None:
        text = self.model_dump_json(indent=2) + "\n"
        (suite / MANIFEST).write_text(text, encoding="utf-8")

    @property
    def categories(self) -> list[str]:
        return sorted({c.category for c in self.cases})
