"""The defect taxonomy: one `Category` spec per id, the shared vocabulary of findings,
seeded bugs and scores.

Everything the investigator knows about a category as such lives in its entry in
`taxonomy.json` (inside the package, so nothing outside it is read at run time): its
stage, title and why, what confirms it, the checklist item whose passing refutes a static
suspicion of it, the intervention that removes it at run time, what it can cause, and why
no template seeds it. Checks, the conclusion, the reports, the JSON schema and the
seeding read it; adding a category is one entry here plus its checks.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from pydantic import BaseModel, Field, model_validator


class Category(BaseModel):
    id: str
    stage: int
    loud: bool  # usually raises an exception
    title: str  # what the reports call it
    confirm: str  # the runtime observation that confirms it
    why: str  # why it breaks learning, in one sentence
    # the checklist item whose passing outcome, on code that ran, refutes a static
    # suspicion of it (only for checks that observe the fact itself)
    refuted_by: str | None = None
    # the runtime change (`key` or `key=value`, tools/interventions.py) that removes it
    fix: str | None = None
    # categories it can produce as a side effect: one of those confirmed beside it is not
    # the root cause (a huge step kills units; an inflated gradient makes clipping bite)
    causes: list[str] = Field(default_factory=list)
    not_seedable: str | None = None  # why no operator seeds it


class Symptom(BaseModel):
    id: str
    title: str


class Taxonomy(BaseModel):
    symptoms: list[Symptom]
    categories: list[Category]

    def category(self, category_id: str) -> Category:
        for c in self.categories:
            if c.id == category_id:
                return c
        raise KeyError(f"unknown taxonomy category {category_id!r}")

    def has_category(self, category_id: str) -> bool:
        return any(c.id == category_id for c in self.categories)

    def has_symptom(self, symptom_id: str) -> bool:
        return any(s.id == symptom_id for s in self.symptoms)

    def by_stage(self, stage: int) -> list[Category]:
        return [c for c in self.categories if c.stage == stage]

    def ids(self) -> list[str]:
        return [c.id for c in self.categories]

    def consequence_of(self, category_id: str) -> set[str]:
        """The categories that can produce this one as a side effect."""
        return {c.id for c in self.categories if category_id in c.causes}

    def refuted_by(self, category_id: str) -> str | None:
        return self.category(category_id).refuted_by if self.has_category(category_id) else None

    @model_validator(mode="after")
    def _causes_are_categories(self) -> Taxonomy:
        known = set(self.ids())
        for c in self.categories:
            unknown = [x for x in c.causes if x not in known]
            if unknown:
                raise ValueError(f"{c.id} causes unknown categories {unknown}")
        return self


@cache
def taxonomy() -> Taxonomy:
    text = resources.files(__package__).joinpath("taxonomy.json").read_text(encoding="utf-8")
    return Taxonomy.model_validate(json.loads(text))


OTHER = "other"
