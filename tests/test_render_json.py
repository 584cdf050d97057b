"""The JSON report: the `Report` record in its published, versioned schema."""

from __future__ import annotations

import json
import math

import jsonschema
import pytest
from conftest import load_report as load

from torch_investigate.agent.core.answer import summarize
from torch_investigate.agent.render import render
from torch_investigate.agent.render.json_out import to_json
from torch_investigate.tools.records import Report, RunSummary, report_json_schema

NAMES = ["buggy", "healthy", "inconclusive", "static_only"]


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = report_json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("name", NAMES)
def test_json_validates_against_the_report_schema(
    name: str, validator: jsonschema.Draft202012Validator
) -> None:
    text = render(load(name), "json")
    errors = sorted(validator.iter_errors(json.loads(text)), key=str)
    assert not errors, [e.message for e in errors]


@pytest.mark.parametrize("name", NAMES)
def test_json_round_trips(name: str) -> None:
    report = load(name)
    text = to_json(report)
    assert Report.model_validate_json(text) == report
    assert text == report.model_dump_json(indent=2)


def test_json_is_strict_json() -> None:
    # No NaN/Infinity tokens: every consumer's JSON parser must read it.
    text = to_json(load("buggy"))
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))


def test_non_finite_losses_round_trip() -> None:
    report = load("healthy")
    report.runs.append(
        RunSummary(label="diverged", status="stopped", steps=3, losses=[1.0, math.inf, math.nan])
    )
    Report.model_validate_json(to_json(report))


@pytest.mark.parametrize("name", NAMES)
def test_the_answer_is_the_first_key(name: str) -> None:
    """`investigate -f json | head` shows the answer, not the schema version and git log."""
    report = load(name)
    report.summary = summarize(report)  # as the session fills it
    text = to_json(report)
    assert next(iter(json.loads(text))) == "summary"
    assert text.splitlines()[1] == '  "summary": {'
    assert any(line.startswith('    "headline": ') for line in text.splitlines()[:5])


def test_the_schema_lists_the_answer_first() -> None:
    assert next(iter(report_json_schema()["properties"])) == "summary"
