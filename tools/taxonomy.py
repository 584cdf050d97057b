"""The defect taxonomy: the shared vocabulary of findings, seeded bugs and scores.

The data lives in `taxonomy.json` inside the package (a copy of the project's
taxonomy), so nothing outside the installed package is read at run time.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from pydantic import BaseModel


class Category(BaseModel):
    id: str
    stage: int
    loud: bool
    title: str
    confirm: str


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


@cache
def taxonomy() -> Taxonomy:
    text = resources.files(__package__).joinpath("taxonomy.json").read_text(encoding="utf-8")
    return Taxonomy.model_validate(json.loads(text))


OTHER = "other"
