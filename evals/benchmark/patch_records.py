"""The records of `investigate bench --patch` (scored in evals/benchmark/patches.py)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from torch_investigate.tools.fix_records import FindingOutcome


class PatchScore(BaseModel):
    """What `investigate fix` produced for one case."""

    root_confirmed: bool = False  # the report named a confirmed root cause
    patched: bool = False  # a patch came out for it (any status)
    verified: bool = False  # ... and rerunning verified it
    status: str = ""  # that patch's status
    origin: str = ""  # mechanical | model
    change: str = ""
    reason: str = ""
    seeded_verified: bool = False  # a verified patch for a finding of the seeded category
    patches: int = 0  # patches in the report (every finding's)
    verified_patches: int = 0
    findings: list[FindingOutcome] = Field(default_factory=list)  # each confirmed finding's
    metric: float | None = None  # the case's metric with the verified root-cause patch
    metric_error: str = ""
    matches: bool | None = None  # that metric recovered the clean template's (None: not measured)
    error: str = ""


class PatchSummary(BaseModel):
    cases: int  # buggy cases
    confirmed_root_causes: int
    patched: int  # of those, with a patch for the root cause
    verified: int  # ... a verified one
    patch_rate: float  # patched / confirmed_root_causes
    verified_rate: float  # verified / confirmed_root_causes
    seeded_verified: int  # buggy cases with a verified patch for the seeded category
    measured: int  # verified root-cause patches whose metric was measured
    matches: int  # ... that recovered the clean template's metric
    clean_controls: int
    clean_patched: int  # clean controls with any patch (should be 0)
    by_origin: dict[str, int] = Field(default_factory=dict)  # verified root-cause patches
    # every confirmed finding of the buggy cases, not only root causes
    confirmed_findings: int = 0
    outcomes: dict[str, int] = Field(default_factory=dict)  # by FindingOutcome.outcome
    short_of: dict[str, int] = Field(default_factory=dict)  # unverified/dropped, by kind of reason
